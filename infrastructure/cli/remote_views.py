"""The thin client's reading commands: ``executions``, ``pending``, ``report``, ``audit verify`` and
``audit export`` against the service's ledger (``GET /v1/executions``, ``/v1/pending``,
``/v1/report``, ``/v1/audit/verify``, ``/v1/audit/export``), never a local one.

The same flags as the local commands where the service answers them, the same texts (the local
CLI's own formatting, over the same plain data) and exit statuses; ``--json`` prints what the
service answered, laid out as the local command lays out its own. A flag the service cannot honour
is refused in one line (exit 2) that says how to do it on the service's host. Nothing here
imports the application or eventsourcing; ``report --format html`` alone loads the renderer."""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from mai_safety.client import PlainClient

from ..reports.text import executions_table, pending_list, report_text
from .arguments import TIME_HINT, ledger_position, utc_text
from .exit_codes import EXIT_OK, EXIT_TAMPERED
from .refused import Refused
from .verification_text import note_lines, verification_status, verification_text

#: As domain.execution.ExecutionStatus and domain.levels.RiskLevel (a unit test keeps them equal):
#: importing those would import eventsourcing.
STATUSES = ("assessed", "awaiting_override", "overridden", "running", "completed", "terminated", "rejected")
LEVELS = ("LOW", "MEDIUM", "HIGH", "BLOCKED")

#: How to ask the local ledger instead, named in every refusal.
ON_THE_HOST = "on the service's host without MAI_SAFETY_URL (or with `python -m mai_safety.infrastructure.cli`)"


def add_commands(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    listing = commands.add_parser("executions", help="the service's executions, newest first (a submitter sees its own)")
    listing.add_argument("--status", choices=STATUSES)
    listing.add_argument("--level", choices=LEVELS)
    listing.add_argument("--since", metavar="TIME", help="created at or after TIME (ISO 8601; UTC unless it says)")
    listing.add_argument("--until", metavar="TIME", help="created before TIME")
    listing.add_argument("--submitter", metavar="PRINCIPAL")
    listing.add_argument("--task", metavar="ID")
    listing.add_argument("--limit", type=int, default=50, metavar="N", help="rows a page (default 50; the service allows 1-1000)")
    listing.add_argument("--page", type=int, default=1, metavar="K")
    listing.add_argument("--json", action="store_true", help="the service's JSON array")

    waiting = commands.add_parser("pending", help="what waits on the service for an answer (approvers, security officers, auditors)")
    waiting.add_argument("--json", action="store_true")

    report = commands.add_parser("report", help="the service's audit report over whole UTC days (auditors); exit 1 when its ledger failed verify")
    report.add_argument("--since", metavar="DAY")
    report.add_argument("--until", metavar="DAY")
    report.add_argument("--format", choices=["text", "json", "html"], default="text")
    report.add_argument("--json", action="store_true")
    report.add_argument("--output", "-o", metavar="FILE", type=Path)

    audit = commands.add_parser("audit", help="verify or export the service's ledger (auditors); every other audit command is local")
    sub = audit.add_subparsers(dest="audit_command", required=True, parser_class=parser_class)
    verify = sub.add_parser("verify", help="the service verifies its whole ledger: chains, checkpoints, MACs (exit 0 intact, 1 tampered)")
    verify.add_argument("--json", action="store_true", help="the service's JSON")
    for flag in ("--from", "--to", "--execution", "--checkpoint", "--public-key"):  # refused with the way to do it
        verify.add_argument(flag, dest=f"local_{flag[2:].replace('-', '_')}", help=argparse.SUPPRESS)
    export = sub.add_parser("export", help="the service's ledger as a self-contained bundle; check it with `audit verify --bundle FILE`")
    export.add_argument("--execution", metavar="ID")
    export.add_argument("--from", dest="from_position", type=ledger_position, metavar="POSITION")
    export.add_argument("--to", dest="to_position", type=ledger_position, metavar="POSITION")
    export.add_argument("--output", metavar="FILE", help="write here (whole or not at all) instead of standard output")


def run(client: PlainClient, args: argparse.Namespace) -> int:
    if args.command == "executions":
        rows = client.executions(
            status=args.status, level=args.level, since=_moment(args.since, "since"), until=_moment(args.until, "until"),
            submitter=args.submitter, task=args.task, limit=args.limit, page=args.page,
        )
        print(json.dumps(rows, indent=2) if args.json else executions_table(rows))
        return EXIT_OK
    if args.command == "pending":
        waiting = client.pending()
        print(json.dumps(waiting, indent=2) if args.json else pending_list(waiting))
        return EXIT_OK
    if args.command == "report":
        return _report(client, args)
    if args.audit_command == "verify":
        return _verify(client, args)
    return _export(client, args)


def _report(client: PlainClient, args: argparse.Namespace) -> int:
    output = "json" if args.json else args.format
    if args.output is not None and output != "html":
        raise Refused("--output writes the HTML report: add --format html (text and JSON go to standard output)")
    report = client.report(_day(args.since, "since"), _day(args.until, "until"))
    if output == "html":
        _html(report, args.output)
    else:
        print(json.dumps(report, indent=2) if output == "json" else report_text(report))
    return EXIT_TAMPERED if report["ledger"].get("verified") is False else EXIT_OK


def _html(report: dict[str, Any], path: Path | None) -> None:
    """The service's figures drawn here, by the local renderer (matplotlib: loaded only now)."""
    from mai_safety.application.audit_report import AuditReport

    from ..reports.errors import ReportNotWritten
    from ..reports.html import render_html, write_html

    audit = AuditReport.from_dict(report)
    if path is None:
        print(render_html(audit))
        return
    try:
        write_html(audit, path)
    except ReportNotWritten as exc:
        raise Refused(str(exc)) from None


def _verify(client: PlainClient, args: argparse.Namespace) -> int:
    asked = [flag for flag in ("from", "to", "execution", "checkpoint", "public_key") if getattr(args, f"local_{flag}") is not None]
    if asked:
        flags = ", ".join(f"--{flag.replace('_', '-')}" for flag in asked)
        raise Refused(
            f"the service verifies its whole ledger and takes no {flags}: check a range or one execution in a bundle it exports "
            "(`mai-safety audit export --from P --to P --output b.jsonl`, then `mai-safety audit verify --bundle b.jsonl`), "
            f"or run `mai-safety audit verify {flags.replace(',', '')} ...` {ON_THE_HOST}"
        )
    report = client.verify()
    if args.json:
        print(json.dumps(report))
    else:
        print(verification_text(report, "ledger"))
        for line in note_lines(report):
            print(line)
    return verification_status(report)


def _export(client: PlainClient, args: argparse.Namespace) -> int:
    if args.execution and (args.from_position or args.to_position):
        raise Refused("--execution chooses its own range: leave out --from and --to")
    options: dict[str, Any] = {"execution": args.execution, "from_position": args.from_position, "to_position": args.to_position}
    if getattr(args, "without_file_bytes", False):
        options["without_file_bytes"] = True
    if args.output is None:
        sys.stdout.flush()
        client.export(sys.stdout.buffer, **options)
        sys.stdout.buffer.flush()
        return EXIT_OK
    path = Path(args.output)
    partial = path.with_name(f".{path.name}.partial")  # renamed once whole: a bundle is never seen half written
    try:
        with partial.open("wb") as handle:
            client.export(handle, **options)
            handle.flush()
            os.fsync(handle.fileno())
        partial.replace(path)
    except OSError as exc:
        raise Refused(f"cannot write {path} ({exc.strerror}): choose another path") from None
    finally:
        partial.unlink(missing_ok=True)
    return EXIT_OK


def _moment(text: str | None, field: str) -> str | None:
    """As the local CLI reads it (arguments.py): an ISO 8601 time (or day), sent as UTC."""
    if text is None:
        return None
    try:
        return utc_text(text)
    except ValueError:
        raise Refused(f"--{field} {text!r} is not a time: {TIME_HINT}") from None


def _day(text: str | None, field: str) -> str | None:
    moment = _moment(text, field)
    return datetime.fromisoformat(moment).date().isoformat() if moment is not None else None
