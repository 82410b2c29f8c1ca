"""The ``mai-safety`` console script. It decides which door a command takes before anything heavy
is imported: ``mcp``, and with ``MAI_SAFETY_URL`` set the commands a client can serve (``run``,
``assess``, ``history``, ``approve``, ``deny``, ``cancel``, ``status``), go through
``mai_safety.client`` to the service; everything else is the local CLI (``cli.py``), which loads
Docker, the analyzers and the ledger."""

from __future__ import annotations

import os
import sys

#: As cli_remote.COMMANDS, kept here so that deciding imports nothing.
CLIENT_COMMANDS = ("run", "assess", "history", "approve", "deny", "cancel", "status")


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["mcp"]:
        from mai_safety.client.mcp_server import main as mcp_main

        return mcp_main(args[1:])
    if os.environ.get("MAI_SAFETY_URL") and args[:1] and args[0] in CLIENT_COMMANDS:
        # httpx imports its own command line (rich, click, pygments: about 45 ms) whenever they are
        # installed, and semgrep installs them; a None in sys.modules makes that import fail, which
        # httpx expects and answers with a stub. This process never runs httpx's command line.
        sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
        from .remote import main as remote_main

        return remote_main(args)
    from .local import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    sys.exit(main())
