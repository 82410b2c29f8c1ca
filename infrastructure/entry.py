"""The ``mai-safety`` console script. It decides which door a command takes before anything heavy
is imported: ``mcp`` is a client of the service and needs only ``mai_safety.client`` and the MCP
SDK; everything else is the local CLI (``cli.py``), which loads Docker, the analyzers and the ledger."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["mcp"]:
        from mai_safety.client.mcp_server import main as mcp_main

        return mcp_main(args[1:])
    from .cli import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    sys.exit(main())
