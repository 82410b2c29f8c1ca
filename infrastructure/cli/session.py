"""``mai-safety session start|run|end|show`` (issue #27): a session on the service at
MAI_SAFETY_URL, a live interpreter that keeps its state between cells. ``run`` reads the cell from
FILE or ``-`` (standard input) as ``run`` reads a program (the same checks: input_files), and
prints and exits as ``run`` does (0, the program's failure, or 2 when the cell waits for a person)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from mai_safety.client import PlainClient
from mai_safety.client._sessions import end_session, get_session, open_session, run_cell

from .exit_codes import EXIT_OK
from .terminal import visible_line


def add_command(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    session = commands.add_parser("session", help="a live interpreter on the service that keeps its state between cells")
    steps = session.add_subparsers(dest="session_command", required=True, parser_class=parser_class)
    start = steps.add_parser("start", help="open a session; prints its id")
    start.add_argument("--image", help="the sandbox image by name")
    start.add_argument("--idle", type=float, metavar="SECONDS", help="ended after this long without a cell")
    start.add_argument("--lifetime", type=float, metavar="SECONDS", help="ended this long after it opened")
    start.add_argument("--network", choices=("none", "deps"), help="none: a session's cells are untrusted code, which gets no network")
    start.add_argument("--json", action="store_true")
    run = steps.add_parser("run", help="run a cell (FILE, or - for standard input), judged with the session's earlier cells")
    run.add_argument("session_id")
    run.add_argument("file", help="a Python file, or - for standard input")
    run.add_argument("--json", action="store_true")
    for name, help_text in (("show", "its state, cells and working directory"), ("end", "end it; its container is removed")):
        step = steps.add_parser(name, help=help_text)
        step.add_argument("session_id")
        step.add_argument("--json", action="store_true")


def run(
    client: PlainClient, args: argparse.Namespace, read_code: Callable[[str], str], show: Callable[[dict[str, Any], bool], int]
) -> int:
    """``read_code``: FILE or - as text (remote.py's reading); ``show``: a cell's report and exit status."""
    if args.session_command == "start":
        described = client.send(open_session(args.image, args.idle, args.lifetime, None, network=args.network))[1]
        print(json.dumps(described) if args.json else described["session_id"])
        return EXIT_OK
    if args.session_command == "run":
        code = read_code(args.file)
        return show(client.send(run_cell(args.session_id, code))[1], args.json)
    call = end_session(args.session_id) if args.session_command == "end" else get_session(args.session_id)
    described = client.send(call)[1]
    if args.json:
        print(json.dumps(described))
    else:
        print(visible_line(f"session {described['session_id']}: {described['status']}"
                           f"{' (' + str(described['ended_reason']) + ')' if described.get('ended_reason') else ''}, "
                           f"{len(described['cells'])} cell(s)"))
        if described.get("workspace"):
            print(visible_line(f"  its working directory, as listed by the {described.get('workspace_listed_by') or 'interpreter'}:"))
        for item in described.get("workspace") or []:
            print(visible_line(f"  {item['name']}  {item['size']} bytes  sha256 {item['sha256']}"))
    return EXIT_OK
