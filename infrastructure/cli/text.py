"""The CLI's text: an execution's verdict, findings and events as lines on a terminal, and the exit
status an execution gives. Shared by the local CLI (``cli.py``) and the thin client
(``cli_remote.py``), over plain dicts (a report's ``to_dict()``, or the service's JSON), and light
to import. Everything taken from the program or its code crosses through ``terminal``."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any

from .exit_codes import EXIT_AWAITING, EXIT_OK, EXIT_PROGRAM_FAILED, EXIT_TERMINATED, EXIT_UNAVAILABLE
from .terminal import framed, visible_line


def exit_for(report: Mapping[str, Any]) -> int:
    if report["status"] == "completed":
        return EXIT_OK if report.get("exit_code") == 0 else EXIT_PROGRAM_FAILED
    if report["status"] == "awaiting_override":
        return EXIT_AWAITING
    if report.get("termination_reason") in ("ledger_unavailable", "supervision_lost"):
        return EXIT_UNAVAILABLE  # the run was ended because a service stopped answering
    return EXIT_TERMINATED


def print_report(report: Mapping[str, Any], *, how_to_answer: str) -> None:
    """The verdict, the findings, the program's output (framed) and the outcome, as text.
    ``how_to_answer``: what a person does for code awaiting a confirmation or an override."""
    out = sys.stdout
    out.write(f"level: {report['level']} ({report['decision'].replace('_', ' ')})\n")
    print_findings(report.get("findings") or [])
    if report["status"] == "awaiting_override":
        out.write(f"status: awaiting_override: not run; answer with {how_to_answer}\n")
    else:
        # The program's words, framed and with its control characters shown: nothing it prints can
        # move the cursor over our lines or pass for one of them (terminal.py).
        if report.get("stdout"):
            out.write(framed("program stdout", report["stdout"]))
        if report.get("stderr"):
            out.write(framed("program stderr", report["stderr"]))
        line = f"status: {report['status']}"
        if report.get("exit_code") is not None:
            line += f", exit code {report['exit_code']}"
        if report.get("termination_reason"):
            line += f", terminated: {report['termination_reason']}"
            if report.get("detail"):
                line += f" ({visible_line(report['detail'])})"
        if report.get("duration_s") is not None:
            line += f", {report['duration_s']:.3f} s"
        if report.get("output_truncated"):
            line += ", output truncated"
        out.write(line + "\n")
    out.write(f"execution: {report['execution_id']}\n")


def print_findings(findings: list[Mapping[str, Any]] | list[dict[str, Any]]) -> None:
    for finding in findings:
        where = f" line {finding['line']}" if finding.get("line") else ""
        # A message names what the code named (a path) and a snippet is the code: one line each, shown.
        message = visible_line(f"{finding['level']:<7} {finding['analyzer']} {finding['rule_id']}{where}: {finding['message']}")
        sys.stdout.write(f"  {message}\n")
        if finding.get("snippet"):
            sys.stdout.write(f"          {visible_line(finding['snippet'])}\n")


def event_line(event: Mapping[str, Any]) -> str:
    skip = {"event", "version", "timestamp", "actor", "code", "chain", "code_diff", "files_in", "observed", "divergences"}
    details = []
    for key, value in event.items():
        if key in skip:
            continue
        if key == "outcome" and isinstance(value, Mapping) and "files_out" in value:
            value = {name: item for name, item in value.items() if name != "files_out"}  # file_lines shows them
        text = json.dumps(value, default=str) if not isinstance(value, str) else value
        details.append(f"{key}={visible_line(text if len(text) <= 80 else text[:77] + '...')}")
    return f"{event['version']:>3} {event['timestamp']} {event['event']:<17} by {visible_line(str(event.get('actor', '?')))}  " + " ".join(details)


def file_lines(event: Mapping[str, Any]) -> list[str]:
    """The files an event names (``Assessed``'s ``files_in``, an ending's ``outcome.files_out``), one
    indented line each: direction, size, media type, SHA-256 prefix, name. The names came from the
    caller or the code, so each crosses ``visible_line``: nothing in one reaches the terminal raw."""
    outcome = event.get("outcome")
    named = [("in ", event.get("files_in") or [])]
    if isinstance(outcome, Mapping):
        named.append(("out", outcome.get("files_out") or []))
    lines = []
    for direction, records in named:
        for record in records:
            media_type = str(record.get("media_type") or "-")
            sha256 = str(record.get("sha256") or "")[:12]
            lines.append(f"      file {direction} {record.get('bytes', '?'):>10} B  {visible_line(media_type):<24} sha256:{visible_line(sha256)}  {visible_line(str(record.get('name', '?')))}")
    return lines


def diff_lines(event: Mapping[str, Any]) -> list[str]:
    """A revision's recorded diff (Assessed's ``code_diff``), indented under its event, each line shown safely."""
    diff = event.get("code_diff") or ""
    return [f"      {visible_line(line)}" for line in diff.splitlines()]
