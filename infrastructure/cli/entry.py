"""The ``mai-safety`` console script. It decides which door a command takes before anything heavy
is imported: ``mcp``, and with ``MAI_SAFETY_URL`` set the commands a client can serve (``run``,
``assess``, ``history``, ``approve``, ``deny``, ``cancel``, ``status``, ``executions``,
``pending``, ``report``, ``policy``, ``audit verify`` and ``audit export``), go through ``mai_safety.client``
to the service; without it, ``run`` and ``approve`` go to the owner's per-user service (``user_service.py``,
started if none runs; ``--no-service`` or ``MAI_SAFETY_LOCAL_SERVICE=0``: in-process); everything
else is the local CLI (``local.py``), which loads Docker, the analyzers and the ledger.

What stays local with the URL set is the operator's, on the service's host, and acts on the ledger
``MAI_SAFETY_DATABASE_URL`` names: ``tokens`` (granting is never done over HTTP: docs/decisions/
0016), ``recover``, ``projections``, ``serve``, and the ``audit`` commands that need the
database or the key (``replay``, ``checkpoint``, ``public-key``, ``init-postgres``, ``archive``);
``audit verify --bundle FILE`` checks a file and needs neither."""

from __future__ import annotations

import os
import sys

#: As remote.COMMANDS, kept here so that deciding imports nothing.
CLIENT_COMMANDS = ("run", "assess", "history", "approve", "deny", "cancel", "status", "executions", "pending", "report", "policy", "session")
#: Of ``audit``, what the service answers (``verify`` of a bundle is checked here).
CLIENT_AUDIT_COMMANDS = ("verify", "export")


def goes_to_the_service(args: list[str]) -> bool:
    """Whether, with MAI_SAFETY_URL set, the command line ``args`` is the service's to answer."""
    if not args:
        return False
    if args[0] in CLIENT_COMMANDS:
        return True
    bundle = any(arg == "--bundle" or arg.startswith("--bundle=") for arg in args)
    return args[0] == "audit" and args[1:2] != [] and args[1] in CLIENT_AUDIT_COMMANDS and not bundle


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["mcp"]:
        from mai_safety.client.mcp_server import main as mcp_main

        return mcp_main(args[1:])
    if os.environ.get("MAI_SAFETY_URL") and goes_to_the_service(args):
        # httpx imports its own command line (rich, click, pygments: about 45 ms) whenever they are
        # installed, and semgrep installs them; a None in sys.modules makes that import fail, which
        # httpx expects and answers with a stub. This process never runs httpx's command line.
        sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
        from .remote import main as remote_main

        return remote_main(args)
    if not os.environ.get("MAI_SAFETY_URL"):
        from . import user_service

        if user_service.wanted(args, os.environ):  # local mode, warm: the per-user service (docs/local-service.md)
            status = user_service.main(args)
            if status is not None:
                return status
    from .local import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    sys.exit(main())
