"""The CLI as a thin client of ``mai-safety serve``: with ``MAI_SAFETY_URL`` set, ``run``, ``assess``,
``history``, ``approve``, ``deny``, ``cancel``, ``status``, and the reading commands ``executions``,
``pending``, ``report``, ``audit verify`` and ``audit export`` (``remote_views``) go to the service
through ``mai_safety.client`` with the caller's token. It imports only what that needs (no Docker,
no analyzers, no ledger): ``entry.py`` sends these commands here before the local CLI is imported.

The same texts and exit statuses as the local CLI (``cli_text``), the same reading of FILE
(``input_files``: the trust boundary for what the user hands us). What differs: who acts is the
token's principal, so ``run --confirm``/``--override`` are refused (nobody answers the gate for code
they submitted: a person with another role runs ``approve`` with their own token), and SARIF is
written by the local CLI only."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from mai_safety.client import (
    AnswerTooLarge,
    ClientConfigurationError,
    Conflict,
    HostBusy,
    InvalidRequest,
    MaiSafetyClientError,
    NotAuthenticated,
    NotFound,
    NotPermitted,
    PlainClient,
    Reply,
    ServerError,
    ServiceUnavailable,
    TokenError,
    TooLarge,
    TransportError,
)
from mai_safety.domain.errors import DomainError

from .run_files import add_file_arguments, read_input_files, save_output_files
from ..input_files import python_files_in, read_program_file, read_program_stdin
from . import live, remote_policy, remote_views, session
from .observed_text import observed_lines
from .text import diff_lines, event_line, exit_for, file_lines, print_findings, print_report
from .exit_codes import EXIT_AWAITING, EXIT_BAD_INPUT, EXIT_BUSY, EXIT_CONFIGURATION, EXIT_INTERNAL, EXIT_NOT_PERMITTED, EXIT_OK, EXIT_UNAVAILABLE
from .refused import Refused as _Refused
from .terminal import visible_line

#: The commands that go to the service when MAI_SAFETY_URL is set (of ``audit``: ``verify`` without
#: ``--bundle``, and ``export``); the rest stay local (entry.py decides).
COMMANDS = ("run", "assess", "history", "approve", "deny", "cancel", "status", "executions", "pending", "report", "audit", "policy", "session")

DESCRIPTION = """mai-safety as a client of the service at MAI_SAFETY_URL (token: MAI_SAFETY_TOKEN, MAI_SAFETY_TOKEN_FILE or
~/.config/mai-safety/token). These commands act on the service and its ledger, as your token's principal."""

EPILOG = """on the service (with MAI_SAFETY_URL set): run, assess, history, approve, deny, cancel, status,
  executions, pending, report, audit verify (not --bundle), audit export, policy show|validate|apply (admin)
on the local ledger named by MAI_SAFETY_DATABASE_URL (the operator's, on the service's host), whatever
  MAI_SAFETY_URL says: tokens, policy show --history, recover, projections, serve, audit verify --bundle, audit replay,
  audit checkpoint, audit public-key, audit init-postgres, audit archive; and every command of
  `python -m mai_safety.infrastructure.cli`

exit status: as the local CLI (see `python -m mai_safety.infrastructure.cli --help`); and
  2  bad input, or a flag the service cannot honour (the message says how to do it locally)
  5  the service does not answer
  6  no usable token, or the service refused it (401)
  7  your token's role may not do this (403)
  1  report, audit verify: the service's ledger failed verification"""
#: What this side reads at most; the service holds its own limit (and answers 413 past it).
MAX_CODE_BYTES = 1024 * 1024


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        self.exit(EXIT_BAD_INPUT, f"mai-safety: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mai-safety", description=DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    run = commands.add_parser("run", help="assess and run a program on the service")
    run.add_argument("file", help="a Python file, or - for standard input")
    run.add_argument("--provenance", choices=["mai", "user", "external"], default="mai")
    run.add_argument("--timeout", type=float, metavar="SECONDS")
    run.add_argument("--memory", metavar="SIZE")
    run.add_argument("--cpus", type=float, metavar="N")
    run.add_argument("--pids", type=int, metavar="N")
    run.add_argument("--output-limit", metavar="SIZE")
    run.add_argument("--cpu-seconds", type=float, metavar="SECONDS")
    run.add_argument("--network", choices=["none", "deps"], default="none")
    run.add_argument("--requirement", "-r", action="append", default=[], metavar="REQ")
    run.add_argument("--task-id", help="recorded beside the execution")
    run.add_argument("--session-id", help="recorded beside the execution")
    run.add_argument("--idempotency-key", help="the same key again returns the first execution (one is made when none is given)")
    run.add_argument("--revises", metavar="ID", help="the execution this code revises: a diff against its code is recorded (shown by history)")
    run.add_argument("--confirm", action="store_true", help=argparse.SUPPRESS)
    run.add_argument("--override", metavar="EXPLANATION", help=argparse.SUPPRESS)
    run.add_argument("--json", action="store_true")
    run.add_argument("--follow-symlinks", action="store_true")
    add_file_arguments(run)

    assess = commands.add_parser("assess", help="assess files on the service without running them")
    assess.add_argument("paths", nargs="+", metavar="FILE|DIR|-")
    assess.add_argument("--provenance", choices=["mai", "user", "external"], default="mai")
    assess.add_argument("--json", action="store_true")
    assess.add_argument("--format", choices=["text", "json", "sarif"])

    approve = commands.add_parser("approve", help="confirm (HIGH) or override (BLOCKED) a waiting execution with your token's role")
    approve.add_argument("execution_id")
    approve.add_argument("--explanation", default="")
    approve.add_argument("--json", action="store_true")
    deny = commands.add_parser("deny", help="refuse a waiting execution")
    deny.add_argument("execution_id")
    deny.add_argument("--reason", default="")
    deny.add_argument("--json", action="store_true")
    cancel = commands.add_parser("cancel", help="stop a waiting or running execution")
    cancel.add_argument("execution_id")
    cancel.add_argument("--json", action="store_true")
    history = commands.add_parser("history", help="an execution's events in order")
    history.add_argument("execution_id")
    history.add_argument("--json", action="store_true")
    status = commands.add_parser("status", help="what answers on the service's side")
    status.add_argument("--json", action="store_true")
    remote_views.add_commands(commands, _Parser)
    remote_policy.add_commands(commands, _Parser)
    session.add_command(commands, _Parser)  # issue #27
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        with PlainClient(os.environ.get("MAI_SAFETY_URL")) as client:
            return _dispatch(client, args)
    except _Refused as exc:
        return _fail(exc.message, exc.code)
    except DomainError as exc:  # bad input read here (FILE, sizes)
        from .hints import cli_message

        return _fail(cli_message(exc), EXIT_BAD_INPUT)
    except MaiSafetyClientError as exc:
        return _fail(*_failure(exc))
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback
        return _fail(f"internal error: {type(exc).__name__}: {exc}. Please report it.", EXIT_INTERNAL)


def _dispatch(client: PlainClient, args: argparse.Namespace) -> int:
    if args.command == "run":
        return _run(client, args)
    if args.command == "assess":
        return _assess(client, args)
    if args.command == "status":
        answer = client.status()
        print(json.dumps(answer) if args.json else _status_text(answer))
        return EXIT_OK if answer.get("ok") else EXIT_UNAVAILABLE
    if args.command == "history":
        events = [_common_fields_first(event) for event in client.events(args.execution_id)]
        if args.json:
            print(json.dumps(events, indent=2, default=str))
        else:
            for event in events:
                print(event_line(event))
                for line in [*file_lines(event), *diff_lines(event), *observed_lines(event)]:
                    print(line)
        return EXIT_OK
    if args.command == "approve":
        waiting = client.get(args.execution_id)
        since, wait_s = time.monotonic(), (live.LIVE_AFTER_S if live.wanted(args.json, sys.stdout) else None)
        if waiting.get("override_kind") == "override":
            if not args.explanation.strip():
                raise _Refused(f"execution {args.execution_id} is BLOCKED: overriding it needs --explanation WHY")
            answered = client.override(args.execution_id, args.explanation, wait_s=wait_s)
        else:
            answered = client.confirm(args.execution_id, args.explanation, wait_s=wait_s)
        return _show(_until_the_end(client, answered, args.json, since), args.json)
    if args.command == "deny":
        return _show(client.deny(args.execution_id, args.reason), args.json)
    if args.command == "cancel":
        return _show(client.cancel(args.execution_id), args.json, exit_ok=True)
    if args.command == "session":
        return session.run(client, args, lambda name: _code_text(*_read(name)), _show)
    if args.command in ("executions", "pending", "report", "audit"):
        return remote_views.run(client, args)
    if args.command == "policy":
        return remote_policy.run(client, args)
    raise AssertionError(f"no handler for {args.command!r}")


def _common_fields_first(event: dict[str, Any]) -> dict[str, Any]:
    """An event with the fields every event has first, in the order this command has always printed them."""
    return {"event": event.get("event"), "version": event.get("version"), "timestamp": event.get("timestamp"),
            "actor": event.get("actor"), "chain": event.get("chain"), **event}


def _run(client: PlainClient, args: argparse.Namespace) -> int:
    if args.confirm or args.override is not None:
        raise _Refused(
            "with MAI_SAFETY_URL set, run takes no --confirm or --override: nobody answers the gate for code they submitted; "
            "a person with the approver or security-officer role answers with `mai-safety approve ID` and their own token"
        )
    code = _code_text(*_read(args.file, follow_symlinks=args.follow_symlinks))
    files = read_input_files(args)
    for flag, value in (("--timeout", args.timeout), ("--cpus", args.cpus), ("--pids", args.pids), ("--cpu-seconds", args.cpu_seconds)):
        if value is not None and value <= 0:
            raise _Refused(f"{flag} must be more than zero, got {value:g}")
    limits = {"timeout_s": args.timeout, "cpus": args.cpus, "pids": args.pids, "cpu_seconds": args.cpu_seconds}
    if args.memory or args.output_limit:
        from mai_safety.domain.limits import parse_size

        limits["memory_bytes"] = parse_size(args.memory, "--memory") if args.memory else None
        limits["output_bytes"] = parse_size(args.output_limit, "--output-limit") if args.output_limit else None
    since = time.monotonic()
    first = client.submit(
        code, provenance=args.provenance, limits={k: v for k, v in limits.items() if v is not None}, network=args.network,
        requirements=args.requirement, task_id=args.task_id, session_id=args.session_id, idempotency_key=args.idempotency_key,
        wait_s=live.LIVE_AFTER_S if live.wanted(args.json, sys.stdout) else None, files=dict(files) if files else None,
        image=args.image, revises=args.revises,
    )
    report = _until_the_end(client, first, args.json, since)
    status = _show(report, args.json)
    save_output_files(args, report, lambda name: client.download(report["execution_id"], name))
    return status


def _until_the_end(client: PlainClient, first: Reply, as_json: bool, since: float) -> dict[str, Any]:
    """The execution once it has ended or awaits a person. On a terminal (no ``--json``) the
    submission waited ``live.LIVE_AFTER_S`` for the end: a run that lasts longer is shown live
    until it ends. Elsewhere the service's own wait, then reading it again, as always."""
    if first.pending and live.wanted(as_json, sys.stdout):
        return live.follow(client, first, sys.stdout, since=since)
    return client.wait(first.data["execution_id"], first=first)


def _assess(client: PlainClient, args: argparse.Namespace) -> int:
    output = args.format or ("json" if args.json else "text")
    if output == "sarif":
        raise _Refused("SARIF is written by the local CLI: run `mai-safety assess --format sarif` without MAI_SAFETY_URL")
    status = EXIT_OK
    for name, base in _expand(args.paths):
        try:
            code = _code_text(*_read(name, base=base))
        except (DomainError, _Refused) as exc:
            status = EXIT_BAD_INPUT
            message = exc.message
            if output == "json":
                print(json.dumps({"path": name, "error": message}))
            else:
                _fail(message, status)
            continue
        report = client.assess(code, provenance=args.provenance)
        if report["level"] in ("HIGH", "BLOCKED") and status == EXIT_OK:
            status = EXIT_AWAITING
        if output == "json":
            print(json.dumps({"path": name, **report}))
        else:
            findings = report.get("findings") or []
            print(f"{visible_line(name)}: {report['level']} ({len(findings)} finding(s), {report.get('duration_ms', 0.0):.0f} ms)")
            print_findings(findings)
    return status


def _show(report: dict[str, Any], as_json: bool, *, exit_ok: bool = False) -> int:
    if as_json:
        print(json.dumps(report))
    else:
        if report.get("override_kind") == "override":
            how = "an override by a person with the security-officer role and their own token: " \
                  f"`mai-safety approve {report['execution_id']} --explanation WHY`"
        else:
            how = f"a confirmation by a person with the approver role and their own token: `mai-safety approve {report['execution_id']}`"
        print_report(report, how_to_answer=f"{how} (deny with `mai-safety deny`)")
    return EXIT_OK if exit_ok else exit_for(report)


def _status_text(status: dict[str, Any]) -> str:
    lines = [f"service:   {'ok' if status.get('ok') else 'NOT OK'}"]
    for part in ("docker", "ledger"):
        value = status.get(part)
        if isinstance(value, dict):
            lines.append(f"{part + ':':<10} {'ok' if value.get('ok') else 'DOES NOT ANSWER'}")
    runsc = (status.get("runtimes") or {}).get("runsc")
    if isinstance(runsc, dict):
        lines.append(f"gvisor:    {'available' if runsc.get('available') else 'not available'}")
    return "\n".join(visible_line(line) for line in lines)


def _expand(paths: list[str]) -> list[tuple[str, str | None]]:
    expanded: list[tuple[str, str | None]] = []
    for name in paths:
        if name != "-" and Path(name).is_dir():
            found = python_files_in(name)
            if not found:
                raise _Refused(f"{name} holds no *.py files")
            expanded.extend((item, name) for item in found)
        else:
            expanded.append((name, None))
    return expanded


def _read(name: str, *, base: str | None = None, follow_symlinks: bool = False) -> tuple[bytes, str]:
    if name == "-":
        return read_program_stdin(sys.stdin.buffer, MAX_CODE_BYTES), "standard input"
    return read_program_file(name, MAX_CODE_BYTES, base=base, follow_symlinks=follow_symlinks), name


def _code_text(code: bytes, source: str) -> str:
    try:
        return code.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Refused(f"{source} is not UTF-8 (byte {exc.start})") from None


def _failure(exc: MaiSafetyClientError) -> tuple[str, int]:
    """The exit status for each failure, as the local CLI gives the same cause."""
    if isinstance(exc, (TokenError, ClientConfigurationError)):
        return exc.message, EXIT_CONFIGURATION
    if isinstance(exc, NotAuthenticated):
        return f"the service refused the token: {exc.detail}", EXIT_CONFIGURATION
    if isinstance(exc, NotPermitted):
        return exc.detail, EXIT_NOT_PERMITTED
    if isinstance(exc, (NotFound, InvalidRequest, TooLarge, Conflict)):
        from .hints import field_hint

        return exc.detail + field_hint(exc.problem.get("field")), EXIT_BAD_INPUT
    if isinstance(exc, AnswerTooLarge):
        return exc.message, EXIT_BAD_INPUT
    if isinstance(exc, HostBusy):
        return f"{exc.detail} (try again in {exc.retry_after or 10:g} s)", EXIT_BUSY
    if isinstance(exc, ServiceUnavailable):
        return exc.detail, EXIT_UNAVAILABLE
    if isinstance(exc, ServerError):
        return f"the service failed: {exc.detail}", EXIT_INTERNAL
    if isinstance(exc, TransportError):
        return f"{exc.message}: is `mai-safety serve` running at {os.environ.get('MAI_SAFETY_URL')}?", EXIT_UNAVAILABLE
    return exc.message, EXIT_INTERNAL


def _fail(message: str, code: int) -> int:
    sys.stderr.write(f"mai-safety: {visible_line(message)}\n")
    return code
