"""The ``mai-safety`` command line: ``entry`` picks the door (the MCP server, the thin client of a
service, or the local CLI) before anything heavy is imported; ``local`` is the local CLI with its
subcommands (``audit``, ``tokens``, ``status``), ``remote`` the thin client; ``text`` and ``terminal``
print what both show; ``exit_codes`` is the one table from error to exit status.

Importing this package imports nothing heavy: ``main`` loads the local CLI only when called."""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    """The local CLI (Docker, the analyzers and the ledger in this process)."""
    from .local import main as local_main

    return local_main(argv)
