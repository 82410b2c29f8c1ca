"""The ``mai-safety`` command line: the user's door to the application.

Exit statuses (also in ``--help`` and the README):
  0  done: the program completed with exit status 0, the ledger is intact, the query answered
  1  the program completed with a non-zero exit status; for `audit verify`: the ledger is tampered
  2  bad input: usage, an unreadable or invalid file, a limit outside the policy, an unknown id
  3  not run: the code awaits a confirmation (HIGH) or an override (BLOCKED)
  4  the run was terminated (a limit was crossed) or rejected before it started
  5  a service does not answer: Docker or the ledger database
  6  configuration: an unknown setting or an invalid policy file
  7  not permitted: the acting person may not confirm or override this code, or the policy in force
     no longer grants what a waiting execution asked for (approve)
 70  an internal error (a bug: please report it)
 75  the host has no room for the run now, even after waiting; or another writer changed the
     execution at every attempt of the command (nothing of it was recorded): try again later
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import replace
from pathlib import Path

from eventsourcing.persistence import IntegrityError, PersistenceError

from mai_safety.application.reports import ExecutionReport, report_for
from mai_safety.application.access import acting_as
from mai_safety.application.executions import MaiSafety
from mai_safety.domain.errors import InvalidSubmission, LimitOutOfPolicy, MaiSafetyError
from mai_safety.domain.assessment import Submission
from mai_safety.domain.levels import Provenance
from mai_safety.domain.network import NetworkMode
from mai_safety.domain.limits import RequestedLimits, parse_size

from ..analysis import load_analysis_policy
from ..bootstrap import bootstrap, build_assessor, default_actor, start_alerts
from .audit import add_audit_commands, run_audit
from .status import print_status
from .tokens import add_token_commands, run_tokens
from .policy import add_policy_commands, run_policy
from .views import COMMANDS as VIEW_COMMANDS, add_view_commands, run_views
from ..policies import load_policies
from ..settings import CLI_LEDGER_CONNECTIONS, Settings
from .text import diff_lines, event_line as _event_line, file_lines, exit_for, print_findings as _print_findings, print_report
from .terminal import visible_line
from .observed_text import observed_lines
from .run_files import read_input_files, save_output_files
from .run_arguments import add_approve_arguments, add_run_arguments, run_only_flags_given, run_only_refusal
from ..input_files import python_files_in, read_program_file, read_program_stdin

from .hints import cli_message
from .exit_codes import (  # noqa: F401 - the documented statuses, named where the commands use them
    EXIT_AWAITING,
    EXIT_BAD_INPUT,
    EXIT_CONFIGURATION,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_PROGRAM_FAILED,
    EXIT_TAMPERED,
    EXIT_TERMINATED,
    EXIT_UNAVAILABLE,
    exit_code_for,
)

EPILOG = """exit status:
  0  done (program exited 0; ledger intact)
  1  the program exited non-zero; `audit verify`: the ledger is tampered
  2  bad input (usage, file, limits, unknown id)
  3  not run: awaiting confirmation (HIGH) or override (BLOCKED)
  4  terminated by a limit, or rejected before start
  5  Docker or the ledger database does not answer
  6  configuration: unknown setting or invalid policy file
  7  not permitted to confirm or override; or the policy no longer grants what was asked
 70  internal error
 75  the host has no room now (after waiting), or the execution kept changing: try again later

assess: 0 all LOW/MEDIUM, 3 some HIGH or BLOCKED, 2 some could not be read
status: 0 Docker, the images and the ledger answer; 5 one of them does not
report: 0; 1 when the ledger failed `audit verify` (the report says so too)

settings: MAI_SAFETY_DATABASE_URL (sqlite:///PATH | postgresql://...), MAI_SAFETY_POLICIES,
MAI_SAFETY_IMAGE, MAI_SAFETY_DATA_DIR, MAI_SAFETY_MAX_CODE_BYTES, MAI_SAFETY_ACTOR

without MAI_SAFETY_URL, the console script's `run` goes to your per-user service on a Unix socket in
your 0700 runtime folder (started if none runs; it exits after MAI_SAFETY_LOCAL_SERVICE_IDLE_S, 300 s
idle); --no-service or MAI_SAFETY_LOCAL_SERVICE=0 runs it in this process (docs/local-service.md)

with MAI_SAFETY_URL set, the console script sends run, assess, history, approve, deny, cancel,
status, executions, pending, report, audit verify (not --bundle) and audit export to the service,
with your token (`mai-safety COMMAND --help` then shows the client's flags); tokens, policy,
recover, projections, serve and the other audit commands, and every command of
`python -m mai_safety.infrastructure.cli`, act on the local ledger named by MAI_SAFETY_DATABASE_URL"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, documented status, no usage dump
        self.exit(EXIT_BAD_INPUT, f"mai-safety: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="mai-safety",
        description="Assess AI-written Python, run it in a hardened container, record every step on a hash-chained ledger.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--database-url", help="ledger location (overrides MAI_SAFETY_DATABASE_URL)")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _add_run_commands(commands)
    _add_answer_commands(commands)
    add_audit_commands(commands, _Parser)
    add_token_commands(commands, _Parser)
    add_policy_commands(commands, _Parser)
    add_view_commands(commands, _Parser)
    _add_service_commands(commands)
    return parser


def _add_run_commands(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """run and assess."""
    run = commands.add_parser("run", help="assess and run a program", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_run_arguments(run)

    assess = commands.add_parser(
        "assess", help="assess files without running them",
        description="Assess without running or recording. Exit 0: all LOW/MEDIUM; 3: some HIGH or BLOCKED; 2: some could not be read.",
    )
    assess.add_argument("paths", nargs="+", metavar="FILE|DIR|-", help="files, directories (*.py inside, recursively) or - for standard input")
    assess.add_argument("--provenance", choices=[p.value for p in Provenance], default=Provenance.MAI.value)
    assess.add_argument("--json", action="store_true", help="one JSON object per file, one per line")
    assess.add_argument("--format", choices=["text", "json", "sarif"], help="text (default), json (as --json), or sarif: one SARIF 2.1.0 log")



def _add_answer_commands(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """approve, deny, cancel; recover, history, status."""
    approve = commands.add_parser(
        "approve", help="confirm (HIGH) or override (BLOCKED) a waiting execution, then run it as submitted (its limits and network)"
    )
    add_approve_arguments(approve)

    deny = commands.add_parser("deny", help="refuse a waiting execution; it ends unrun")
    deny.add_argument("execution_id")
    deny.add_argument("--reason", default="", help="why")
    deny.add_argument("--json", action="store_true")

    cancel = commands.add_parser("cancel", help="stop a waiting or running execution")
    cancel.add_argument("execution_id")
    cancel.add_argument("--json", action="store_true")

    recover = commands.add_parser("recover", help="end executions whose supervisor died, and remove their containers")
    recover.add_argument("--json", action="store_true")

    history = commands.add_parser("history", help="an execution's events in order")
    history.add_argument("execution_id")
    history.add_argument("--json", action="store_true")

    status = commands.add_parser("status", help="what answers: Docker, gVisor, the images, the ledger, the analyzers (exit 0, or 5)")
    status.add_argument("--json", action="store_true")


def _add_service_commands(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """mcp and serve."""
    commands.add_parser(
        "mcp", help="an MCP server on stdio for an AI assistant: a client of `mai-safety serve` with a submitter token",
        description="Serve MCP on stdio (tools: assess_code, run_code, get_execution, list_recent_executions; none confirms or overrides). "
        "MAI_SAFETY_URL names the service (default http://127.0.0.1:8750); MAI_SAFETY_TOKEN or MAI_SAFETY_TOKEN_FILE the token.",
    )

    serve = commands.add_parser(
        "serve", help="the HTTP service: callers hold a token, the service holds Docker, the ledger and the key",
        description="Serve the authenticated HTTP API (OpenAPI at /openapi.json). Tokens: `mai-safety tokens create`.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8750, help="port (default 8750)")
    serve.add_argument("--max-wait", type=float, default=60.0, metavar="SECONDS", help="longest a request waits for its run to end before answering 202 (default 60)")
    serve.add_argument("--grace", type=float, default=30.0, metavar="SECONDS", help="on SIGTERM, how long running executions may take to finish (default 30)")
    serve.add_argument("--sweep-every", type=float, default=5.0, metavar="SECONDS", help="how often overdue waits, and executions a gone server left, are ended (default 5)")
    serve.add_argument("--lease", type=float, default=45.0, metavar="SECONDS", help="this server's lease on its runs: a peer silent this long is gone, and its runs are ended (default 45)")
    serve.add_argument("--max-streams", type=int, default=64, metavar="N", help="event streams open at once on this server (default 64); past it: 429")
    serve.add_argument("--max-streams-per-principal", type=int, default=8, metavar="N", help="event streams one principal may hold open (default 8); past it: 429")


#: How long a command waits at its end for the webhook to take its alerts (a dead one is given up).
CLI_ALERT_WAIT_S = 5.0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_environment(database_url=args.database_url)
        if args.command != "serve":  # a one-shot process: one pooled connection (README, "faults")
            settings = replace(settings, ledger_connections=CLI_LEDGER_CONNECTIONS)
        with acting_as(default_actor(settings)):
            return _dispatch(args, settings)
    except (MaiSafetyError, PersistenceError) as exc:
        message, status = failure_of(exc)
        _error(message)
        return status
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except BrokenPipeError:
        # The reader of our output went away (e.g. `| head`): nothing more to say.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, never a traceback
        _error(f"internal error: {type(exc).__name__}: {exc}. Please report it.")
        return EXIT_INTERNAL


def _dispatch(args: argparse.Namespace, settings: Settings) -> int:
    if args.command == "audit":
        return run_audit(args, settings)
    if args.command == "tokens":
        return run_tokens(args, settings)
    if args.command == "policy":
        return run_policy(args, settings)
    if args.command in VIEW_COMMANDS:
        return run_views(args, settings)
    if args.command == "mcp":  # the console script (entry.py) gets here without importing this module
        from mai_safety.client.mcp_server import main as mcp_main

        return mcp_main([])
    if args.command == "serve":
        from ..http.server import serve  # only the service pays for importing FastAPI and uvicorn

        return serve(
            settings, host=args.host, port=args.port, max_wait_s=args.max_wait, grace_s=args.grace, sweep_every_s=args.sweep_every,
            lease_s=args.lease, max_streams=args.max_streams, max_streams_per_principal=args.max_streams_per_principal,
        )
    if args.command == "assess":
        return _assess(args, settings)
    if args.command == "status":
        return print_status(settings, args.json)
    if args.command == "run":
        # Bad input is refused before anything is set up.
        code, source = _read_code(args.file, settings.max_code_bytes, follow_symlinks=args.follow_symlinks)
        requested = _requested_limits(args)
        files = read_input_files(args)
    if args.command == "approve":
        _refuse_run_only_flags(args)
    app = bootstrap(settings, one_shot=True)
    alerts = None
    try:
        alerts = start_alerts(settings, app)
        if args.command == "run":
            return _run(app, args, code, source, requested, files)
        return _command(app, args)
    finally:
        if alerts is not None:
            alerts.close(wait_s=CLI_ALERT_WAIT_S)
        app.close()


def _run(app: MaiSafety, args: argparse.Namespace, code: bytes, source: str, requested: RequestedLimits, files: list[tuple[str, bytes]]) -> int:
    app.recover()
    report = app.run(
        code,
        provenance=Provenance(args.provenance),
        requested=requested,
        source=source,
        confirm=args.confirm,
        override=args.override,
        network=NetworkMode(args.network),
        requirements=args.requirement,
        revises=args.revises,
        files=files,
        image=args.image,
    )
    if report.status == "awaiting_override" and report.override_kind == "confirmation" and _can_prompt(args):
        _print_report(report, as_json=False)
        if _ask("Run this HIGH code anyway? [y/N] "):
            report = app.approve(report.execution_id, "confirmed at the terminal")  # runs what was recorded
        else:
            report = app.deny(report.execution_id, "declined at the terminal")
    _print_report(report, as_json=args.json)
    save_output_files(args, report.to_dict(), lambda name: app.file(report.execution_id, name)[1])
    return _exit_for(report)


def _command(app: MaiSafety, args: argparse.Namespace) -> int:
    if args.command in ("approve", "deny", "cancel"):
        if args.command == "approve":
            app.recover()
            report = app.approve(args.execution_id, args.explanation)
        elif args.command == "deny":
            report = app.deny(args.execution_id, args.reason)
        else:
            report = app.cancel(args.execution_id)
        _print_report(report, as_json=args.json)
        return EXIT_OK if args.command == "cancel" else _exit_for(report)
    if args.command == "recover":
        lost = app.recover()
        print(json.dumps({"recovered": lost}) if args.json else f"recovered {len(lost)} execution(s) whose supervisor was gone")
        return EXIT_OK
    if args.command == "history":
        events = app.history(args.execution_id)
        if args.json:
            print(json.dumps(events, indent=2, default=str))
        else:
            for event in events:
                print(_event_line(event))
                for line in file_lines(event) + diff_lines(event) + observed_lines(event):
                    print(line)
        return EXIT_OK
    raise AssertionError(f"no handler for command {args.command!r}")  # argparse admits only the commands above


def _refuse_run_only_flags(args: argparse.Namespace) -> None:
    given = run_only_flags_given(args)
    if given:
        raise InvalidSubmission(run_only_refusal(args, given))


def _can_prompt(args: argparse.Namespace) -> bool:
    return not args.json and args.file != "-" and sys.stdin.isatty() and sys.stdout.isatty()


def _ask(question: str) -> bool:
    try:
        return input(question).strip().lower() in ("y", "yes")
    except EOFError:
        return False


def _assess(args: argparse.Namespace, settings: Settings) -> int:
    """Every readable file is assessed in one batch (Semgrep reads them all in one run)."""
    policies = load_policies(settings.policies_dir)
    provenance = Provenance(args.provenance)
    status = EXIT_OK
    output = args.format or ("json" if args.json else "text")
    unreadable: list[tuple[str, str]] = []
    readable: list[tuple[str, Submission]] = []
    for name, base in _expand(args.paths):
        try:
            code, source = _read_code(name, settings.max_code_bytes, base=base)
            readable.append((name, Submission.from_bytes(code, provenance, settings.max_code_bytes, source)))
        except MaiSafetyError as exc:
            status = EXIT_BAD_INPUT
            unreadable.append((name, cli_message(exc)))
            if output == "json":
                print(json.dumps({"path": name, "error": cli_message(exc)}))
            else:
                _error(cli_message(exc))
    if not readable and output != "sarif":
        return status
    analysis = load_analysis_policy(policies.directory)
    assessor = build_assessor(policies, warm_semgrep=False, analysis=analysis)
    try:
        assessments = assessor.assess_many([submission for _, submission in readable])
    finally:
        assessor.close()
    reports = []
    for (name, submission), assessment in zip(readable, assessments):
        report = report_for(submission, assessment)
        reports.append((name, report.to_dict()))
        if report.level in ("HIGH", "BLOCKED") and status == EXIT_OK:
            status = EXIT_AWAITING
        if output == "json":
            print(json.dumps({"path": name, **report.to_dict()}))
        elif output == "text":
            print(f"{visible_line(name)}: {report.level} ({len(report.findings)} finding(s), {report.duration_ms:.0f} ms)")
            _print_findings(report.findings)
    if output == "sarif":
        from ..analysis import sarif_log  # the analyzers' rules: only SARIF's output names them

        print(json.dumps(sarif_log(reports, analysis, notifications=unreadable), indent=2))
    return status


def _expand(paths: list[str]) -> list[tuple[str, str | None]]:
    """Directories become the Python files inside them, sorted, each read as inside that directory;
    everything else is kept as given."""
    expanded: list[tuple[str, str | None]] = []
    for name in paths:
        if name != "-" and Path(name).is_dir():
            found = python_files_in(name)
            if not found:
                raise InvalidSubmission(f"{name} holds no *.py files")
            expanded.extend((item, name) for item in found)
        else:
            expanded.append((name, None))
    return expanded


def _read_code(name: str, max_bytes: int, *, base: str | None = None, follow_symlinks: bool = False) -> tuple[bytes, str]:
    """The trust boundary for what the user hands us: see submitted_input.py."""
    if name == "-":
        return read_program_stdin(sys.stdin.buffer, max_bytes), "standard input"
    return read_program_file(name, max_bytes, base=base, follow_symlinks=follow_symlinks), name


def _requested_limits(args: argparse.Namespace) -> RequestedLimits:
    for flag, value in (
        ("--timeout", args.timeout),
        ("--cpus", args.cpus),
        ("--pids", args.pids),
        ("--cpu-seconds", args.cpu_seconds),
    ):
        if value is not None and value <= 0:
            raise LimitOutOfPolicy(f"{flag} must be more than zero, got {value:g}")
    return RequestedLimits(
        cpus=args.cpus,
        memory_bytes=parse_size(args.memory, "--memory") if args.memory else None,
        pids=args.pids,
        timeout_s=args.timeout,
        output_bytes=parse_size(args.output_limit, "--output-limit") if args.output_limit else None,
        cpu_seconds=args.cpu_seconds,
    )


def _exit_for(report: ExecutionReport) -> int:
    return exit_for(report.to_dict())


def _print_report(report: ExecutionReport, *, as_json: bool) -> None:
    if as_json:
        print(json.dumps(report.to_dict()))
        return
    if report.override_kind == "override":
        how = f"`mai-safety approve {report.execution_id} --explanation WHY` by an allowed actor, or `run --override WHY`"
    else:
        how = f"`mai-safety approve {report.execution_id}`, or `run --confirm`"
    print_report(report.to_dict(), how_to_answer=f"{how} (deny with `mai-safety deny`)")


def failure_of(exc: Exception) -> tuple[str, int]:
    """What the command says, and its exit status, for an error of the application or the ledger:
    in this process, or in the per-user service that ran the command (http/user_service.py)."""
    if isinstance(exc, MaiSafetyError):
        return cli_message(exc), exit_code_for(exc)
    if isinstance(exc, IntegrityError):
        return f"the ledger refused a write ({exc}); nothing was half-written: try again", EXIT_UNAVAILABLE
    if isinstance(exc, PersistenceError):
        return _ledger_failure(exc), EXIT_UNAVAILABLE
    return f"internal error: {type(exc).__name__}: {exc}. Please report it.", EXIT_INTERNAL


def _ledger_failure(exc: Exception) -> str:
    """The ledger's failure in words that name its real cause."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    lowered = text.lower()
    if "too many clients" in lowered:
        return f"the ledger's database has no connection free ({text}): nothing was recorded, try again in a few seconds"
    if "disk is full" in lowered or "no space left" in lowered or "could not extend file" in lowered:
        return f"the ledger's disk is full ({text}): free space where the ledger lives, then try again"
    if "readonly" in lowered or "read-only" in lowered or "permission denied" in lowered:
        return f"the ledger cannot be written ({text}): check the permissions of its file or role"
    if "locked" in lowered or "timeout" in lowered or "timed out" in lowered:
        return f"the ledger is busy or did not answer in time ({text}): try again"
    return f"the ledger database failed ({text}): check it is running and reachable"


def _error(message: str) -> None:
    sys.stderr.write(f"mai-safety: {visible_line(message)}\n")  # a message may name a path or quote input


if __name__ == "__main__":
    sys.exit(main())
