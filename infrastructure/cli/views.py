"""``mai-safety executions``, ``pending``, ``report`` and ``projections``: the commands that read
the read models (docs/decisions/0021). Without a server each first catches the views up with the
ledger, so what it prints is as of the ledger's head."""

from __future__ import annotations

import argparse
import json
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

from mai_safety.application.audit_figures import anchor_from
from mai_safety.application.errors import InvalidQuery
from mai_safety.application.views import ExecutionFilter
from mai_safety.domain.execution import ExecutionStatus
from mai_safety.domain.levels import RiskLevel

from ..bootstrap import bootstrap, read_models
from ..reports.text import diverged_table, executions_table, pending_list, report_text
from ..settings import Settings

from .arguments import TIME_HINT, utc_text
from .exit_codes import EXIT_OK, EXIT_TAMPERED

COMMANDS = ("executions", "pending", "report", "projections")


def add_view_commands(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    listing = commands.add_parser("executions", help="what ran and what was refused, newest first (a page at a time)")
    listing.add_argument("--status", choices=[status.value for status in ExecutionStatus])
    listing.add_argument("--level", choices=[level.value for level in RiskLevel])
    listing.add_argument("--since", metavar="TIME", help="created at or after TIME (ISO 8601; UTC unless it says)")
    listing.add_argument("--until", metavar="TIME", help="created before TIME")
    listing.add_argument("--submitter", metavar="PRINCIPAL", help="submitted by (the token's principal, or the CLI's actor)")
    listing.add_argument("--task", metavar="ID", help="the caller's task id")
    listing.add_argument("--limit", type=int, default=50, metavar="N", help="rows a page (default 50)")
    listing.add_argument("--page", type=int, default=1, metavar="K", help="which page, from 1 (default 1)")
    listing.add_argument("--json", action="store_true", help="one JSON array")
    listing.add_argument("--diverged", action="store_true", help="only those seen doing what their level did not predict (decision 0044)")

    waiting = commands.add_parser("pending", help="what waits for a confirmation or an override: findings, time left")
    waiting.add_argument("--json", action="store_true")

    report = commands.add_parser(
        "report", help="the audit report over whole UTC days, tied to the ledger's head and newest checkpoint",
        description="Runs `audit verify` and states whether it passed. Exit 0; 1 when the ledger failed verification.",
    )
    report.add_argument("--since", metavar="DAY", help="first day (YYYY-MM-DD; a time is read as its day)")
    report.add_argument("--until", metavar="DAY", help="last day, inclusive")
    report.add_argument("--format", choices=["text", "json", "html"], default="text")
    report.add_argument("--json", action="store_true", help="as --format json")
    report.add_argument("--output", "-o", metavar="FILE", type=Path, help="--format html: write it to FILE (whole or not at all) instead of printing it")

    projections = commands.add_parser("projections", help="the read models: rebuild them from the ledger, or catch them up")
    projections.add_argument("action", choices=["rebuild", "catch-up"])
    projections.add_argument("--json", action="store_true")


def run_views(args: argparse.Namespace, settings: Settings) -> int:
    app = bootstrap(settings, one_shot=True)
    try:
        models = read_models(app)
        now = datetime.now(timezone.utc)
        if args.command == "executions" and args.diverged:
            diverged = app.diverged(args.limit)
            print(json.dumps(diverged, indent=2) if args.json else diverged_table(diverged))
            return EXIT_OK
        if args.command == "executions":
            query = ExecutionFilter(
                status=args.status, level=args.level, submitter=args.submitter, task_id=args.task,
                since=_moment(args.since, "since"), until=_moment(args.until, "until"), limit=args.limit, page=args.page,
            )
            rows = [row.to_dict() for row in models.executions(query)]
            print(json.dumps(rows, indent=2) if args.json else executions_table(rows))
            return EXIT_OK
        if args.command == "pending":
            waiting = models.pending(now)
            print(json.dumps(waiting, indent=2) if args.json else pending_list(waiting))
            return EXIT_OK
        if args.command == "projections":
            read = models.rebuild() if args.action == "rebuild" else models.catch_up()
            state = {"read": read, **models.lag()}
            print(json.dumps(state) if args.json else f"projections: {args.action}: {read} events read; at position {state['position']} of {state['head']}")
            return EXIT_OK
        since, until = _day(args.since, "since"), _day(args.until, "until")
        models.check_report(since, until)
        output = "json" if args.json else args.format
        if args.output is not None and output != "html":
            raise InvalidQuery("--output writes the HTML report: add --format html (text and JSON go to standard output)", "output")
        anchor = anchor_from(app.verify())
        audit = models.report(anchor, since, until, now, policy_changes=app.policy_changes, run_files=app.run_files, diverged=app.diverged)
        if output == "html":
            from ..reports.html import render_html, write_html  # matplotlib (0.4 s) for the charts alone

            if args.output is not None:
                write_html(audit, args.output)
            else:
                print(render_html(audit))
        else:
            if output == "json":
                print(json.dumps(audit.to_dict(), indent=2))
            else:
                print(report_text(audit.to_dict()))
        return EXIT_TAMPERED if anchor.verified is False else EXIT_OK
    finally:
        app.close()


def _moment(text: str | None, field: str) -> str | None:
    """An ISO 8601 time (or day) as the UTC text the views compare (arguments.py)."""
    if text is None:
        return None
    try:
        return utc_text(text)
    except ValueError:
        raise InvalidQuery(f"--{field} {text!r} is not a time: {TIME_HINT}", field) from None


def _day(text: str | None, field: str) -> date | None:
    moment = _moment(text, field)
    return datetime.fromisoformat(moment).date() if moment is not None else None

