"""The ``mai-safety audit`` commands: the tamper-evident ledger from the command line.

  verify         recompute both chains and check every signed checkpoint (or a bundle, offline)
  replay ID      one execution's timeline from its verified events, as of any moment
  export         a self-contained bundle that `verify --bundle` checks with no database
  checkpoint     seal the head now and print the newest signed checkpoint, to keep elsewhere
  public-key     print the public key that checks the signatures (makes the key pair if needed)
  init-postgres  make a Postgres ledger append-only: owner role, service role, triggers
  archive        retention: export verified, signed ranges older than the policy says

Exit statuses: 0 intact (or done), 1 tampered, 2 could not check (bad input, no public key, an
unreadable bundle or checkpoint file, an unknown execution), 5 the database does not answer,
6 configuration (a bad signing key, policy or owner role).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import stat
import sys
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from mai_safety.ledger import verify_bundle
from mai_safety.ledger import LedgerAudit
from mai_safety.application.errors import CannotVerify
from mai_safety.application.ports import PublicKey
from mai_safety.application.reports import ReplayReport, VerificationReport
from mai_safety.ledger import Checkpoint

from ..bootstrap import alert_verify_failed, bootstrap, default_actor, harden_ledger, ledger_config, signing_keys
from ..input_files import UnreadableInput, open_regular_file, read_regular_file
from mai_safety.ledger import FileWitness
from ..settings import Settings
from .arguments import ledger_position
from .exit_codes import EXIT_OK, EXIT_TAMPERED
from .terminal import framed, visible_line
from .verification_text import note_lines, verification_status, verification_text


AUDIT_EPILOG = """exit status:
  0  intact (verify, replay, export, archive) or done
  1  tampered: each problem is printed with its position, execution, event and what is wrong
  2  could not check: bad input, no public key, an unreadable bundle or checkpoint, an unknown id
  5  the ledger database does not answer
  6  configuration: the signing key, a policy file or the owner role is wrong"""

_ARCHIVE_NAME = re.compile(r"^ledger-(\d{12})-(\d{12})\.jsonl$")

_SMALL_FILE = 1024 * 1024  # a checkpoint, a public key, a password file
_BUNDLE_LINE = 64 * 1024 * 1024  # one event (its output inline) or one blob, as JSON


def _moment(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an ISO 8601 time such as 2024-05-01T12:00:00+00:00") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)  # a time without a zone is UTC


def add_audit_commands(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    """Add ``audit`` and its subcommands to the main parser's subparsers."""
    formatter = argparse.RawDescriptionHelpFormatter
    audit = commands.add_parser(
        "audit", help="check, replay and export the tamper-evident ledger", epilog=AUDIT_EPILOG, formatter_class=formatter
    )
    sub = audit.add_subparsers(dest="audit_command", required=True, parser_class=parser_class)

    verify = sub.add_parser(
        "verify", help="recompute both hash chains and check every signed checkpoint", epilog=AUDIT_EPILOG, formatter_class=formatter
    )
    verify.add_argument("--from", dest="from_position", type=ledger_position, metavar="POSITION", help="first position to check")
    verify.add_argument("--to", dest="to_position", type=ledger_position, metavar="POSITION", help="last position to check")
    verify.add_argument("--execution", metavar="ID", help="one execution, and the ledger up to the checkpoint covering it")
    verify.add_argument("--checkpoint", metavar="FILE", help="a checkpoint you kept (`audit checkpoint > FILE`): the ledger must still extend it")
    verify.add_argument("--bundle", metavar="FILE", help="check an exported bundle instead of the database (no database needed)")
    verify.add_argument("--public-key", metavar="FILE", help="the trusted public key (default: the signing key's; for --bundle: the bundle's own)")
    verify.add_argument("--json", action="store_true", help="one JSON object")

    replay = sub.add_parser("replay", help="an execution's timeline, rebuilt from its verified events", epilog=AUDIT_EPILOG, formatter_class=formatter)
    replay.add_argument("execution_id")
    replay.add_argument("--as-of", type=_moment, metavar="TIME", help="the state at a past moment (ISO 8601; UTC if no zone)")
    replay.add_argument("--json", action="store_true", help="one JSON object")

    export = sub.add_parser("export", help="write a self-contained, verifiable bundle (JSON lines)", epilog=AUDIT_EPILOG, formatter_class=formatter)
    export.add_argument("--execution", metavar="ID", help="one execution (other executions' events appear as hashes only)")
    export.add_argument("--from", dest="from_position", type=ledger_position, metavar="POSITION")
    export.add_argument("--to", dest="to_position", type=ledger_position, metavar="POSITION")
    export.add_argument("--output", metavar="FILE", help="write here instead of standard output")
    export.add_argument(
        "--without-file-bytes", action="store_true",
        help="name the runs' input and output files (name, size, SHA-256) but leave their bytes out; `verify --bundle` says so",
    )

    checkpoint = sub.add_parser("checkpoint", help="seal the head now and print the newest signed checkpoint (JSON) to keep")
    checkpoint.add_argument("--no-seal", action="store_true", help="print the newest checkpoint without sealing")

    public_key = sub.add_parser("public-key", help="print the public key that checks checkpoint signatures (PEM)")
    public_key.add_argument("--json", action="store_true", help="key id and PEM as one JSON object")

    init = sub.add_parser(
        "init-postgres",
        help="make a Postgres ledger append-only: tables owned by an owner role, the service role may only insert and read",
    )
    init.add_argument("--owner-url", metavar="URL", help="postgresql://OWNER:PASSWORD@HOST:PORT/DB (the tables' owner)")
    init.add_argument("--service-role", required=True, metavar="ROLE", help="the role the service connects as (created if missing)")
    init.add_argument("--service-password-file", metavar="FILE", help="set the service role's password from this file")
    init.add_argument("--schema", default="public")
    init.add_argument("--print-sql", action="store_true", help="print the SQL for the owner to apply by hand; change nothing")

    archive = sub.add_parser("archive", help="retention: export verified, signed ranges older than the policy into the archive folder")
    archive.add_argument("--older-than-days", type=float, metavar="DAYS", help="instead of retention.archive_after_days")
    archive.add_argument("--json", action="store_true")


def run_audit(args: argparse.Namespace, settings: Settings) -> int:
    command = args.audit_command
    if command == "public-key":
        return _public_key(settings, as_json=args.json)
    if command == "init-postgres":
        return _init_postgres(args)
    if command == "verify" and args.bundle:
        return _verify_bundle(args, settings)
    app = bootstrap(settings, one_shot=True)  # a one-shot process that assesses nothing
    try:
        audit = app.audit
        if command == "verify":
            return _verify(audit, args, settings)
        if command == "replay":
            report = audit.replay(args.execution_id, args.as_of)
            print(json.dumps(report.to_dict(), default=str) if args.json else _replay_text(report))
            return EXIT_OK if report.intact else EXIT_TAMPERED
        if command == "export":
            return _export(audit, args)
        if command == "checkpoint":
            found = audit.checkpoint(seal=not args.no_seal)
            if found is None:
                raise CannotVerify("the ledger holds no events yet: there is nothing to sign")
            print(json.dumps(found.to_dict(), indent=2))
            return EXIT_OK
        return _archive(audit, args, settings)
    finally:
        app.close()


# --- verify --------------------------------------------------------------------------------------


def _verify(audit: LedgerAudit, args: argparse.Namespace, settings: Settings) -> int:
    if args.execution and (args.from_position or args.to_position):
        raise CannotVerify("--execution chooses its own range: leave out --from and --to")
    report = audit.verify(
        from_position=args.from_position,
        to_position=args.to_position,
        execution=args.execution,
        kept=_read_checkpoint(args.checkpoint) if args.checkpoint else None,
        public_key=_read_public_key(args.public_key, settings) if args.public_key else None,
    )
    report = replace(report, notes=[*_placement_notes(audit, settings), *report.notes])
    if not report.intact:
        alert_verify_failed(settings, report, default_actor(settings))
    protection = audit.protection()
    if args.json:
        print(json.dumps({**report.to_dict(), "protection": protection}))
    else:
        print(verification_text(report.to_dict(), "ledger"))
        if protection is not None:
            print(_protection_text(protection))
        _print_notes(report)
    return verification_status(report.to_dict())


def _placement_notes(audit: LedgerAudit, settings: Settings) -> list[str]:
    """Where the signing key and the witness file sit, against the ledger's file: a key in the
    ledger's folder lets whoever can change the ledger re-sign it (a warning); a key the ledger
    file's owner can read is the local single-user mode, which does not hold against that user."""
    ledger_file = audit.ledger_file()
    if ledger_file is None:
        return []
    folder = ledger_file.parent
    notes = []
    key = settings.signing_key_path
    try:
        key_stat, ledger_stat = key.stat(), ledger_file.stat()
    except OSError:
        return notes
    resolved = key.resolve()
    if resolved.parent == folder or folder in resolved.parents:
        notes.append(
            f"warning: the signing key {key} sits in the ledger's folder {folder}: whoever can change the ledger can "
            "read the key and re-sign a rewritten ledger. Move it out, e.g. "
            f"`mkdir -m 700 -p ~/.config/mai-safety && mv {key} ~/.config/mai-safety/` (the default now), "
            "or point MAI_SAFETY_SIGNING_KEY at it"
        )
    elif key_stat.st_uid == ledger_stat.st_uid and key_stat.st_mode & stat.S_IRUSR:
        notes.append(
            f"local single-user mode: the ledger file's owner (uid {ledger_stat.st_uid}) can also read the signing key "
            f"{key}: the signatures and MACs hold against everyone else and against careless changes, not against "
            "that user (docs/trust-model.md)"
        )
    config = ledger_config(settings)
    for witness in config.witnesses.witnesses:
        if isinstance(witness, FileWitness):
            where = witness.path.resolve()
            if where.parent == folder or folder in where.parents:
                notes.append(
                    f"warning: the witness {witness.path} sits in the ledger's folder: whoever can cut the ledger short "
                    "can cut the witness too. Give it a path elsewhere in policies/ledger.yaml"
                )
    return notes


def _print_notes(report: VerificationReport) -> None:
    for line in note_lines(report.to_dict()):
        print(line)


def _verify_bundle(args: argparse.Namespace, settings: Settings) -> int:
    if args.from_position or args.to_position or args.execution or args.checkpoint:
        raise CannotVerify("--bundle is checked whole: leave out --from, --to, --execution and --checkpoint")
    keys = signing_keys(settings)
    pinned = _read_public_key(args.public_key, settings) if args.public_key else None
    report = verify_bundle(_lines(Path(args.bundle)), keys, pinned)
    if args.json:
        print(json.dumps(report.to_dict()))
    else:
        print(verification_text(report.to_dict(), "bundle"))
        if report.scope.get("key_source") == "bundle":
            print(f"trusting the key inside the bundle ({report.key_id}): compare it, or pin one with --public-key FILE")
        _print_notes(report)
    return verification_status(report.to_dict())


def _lines(path: Path) -> Iterator[str]:
    """The bundle's lines, from a regular file only, each at most _BUNDLE_LINE bytes."""
    try:
        with open_regular_file(str(path)) as raw:
            while line := raw.readline(_BUNDLE_LINE + 1):
                if len(line) > _BUNDLE_LINE and not line.endswith(b"\n"):
                    raise CannotVerify(f"{path} has a line over {_BUNDLE_LINE} bytes: not a bundle of ours")
                yield line.decode("utf-8")
    except UnreadableInput as exc:
        raise CannotVerify(f"{exc.message}: give the bundle file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CannotVerify(f"{path} cannot be read ({exc}): check the file") from None


def _protection_text(protection: dict[str, Any]) -> str:
    if protection["append_only_triggers"] and not protection["role_may_change_events"]:
        return f"database protection: append-only (triggers on; role {protection['role']} may only insert and read)"
    missing = []
    if not protection["append_only_triggers"]:
        missing.append("the append-only triggers are missing or off")
    if protection["role_may_change_events"]:
        missing.append(f"role {protection['role']} may update or delete events")
    return f"database protection: OFF ({'; '.join(missing)}): see `mai-safety audit init-postgres --help`"


def _read_checkpoint(name: str) -> Checkpoint:
    path = Path(name)
    try:
        data = json.loads(read_regular_file(str(path), _SMALL_FILE).decode("utf-8"))
        return Checkpoint.from_dict(data)
    except UnreadableInput as exc:
        raise CannotVerify(f"{exc.message}: give the file written by `mai-safety audit checkpoint`") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CannotVerify(f"{name} cannot be read ({exc})") from None
    except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError):
        raise CannotVerify(f"{name} is not a checkpoint written by `mai-safety audit checkpoint`") from None


def _read_public_key(name: str, settings: Settings) -> PublicKey:
    try:
        text = read_regular_file(name, _SMALL_FILE).decode("ascii")
    except UnreadableInput as exc:
        raise CannotVerify(f"{exc.message}: give the file from `mai-safety audit public-key`") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CannotVerify(f"the public key {name} cannot be read ({exc}): give the file from `mai-safety audit public-key`") from None
    return signing_keys(settings).public_key_from_pem(text, name)


# --- replay --------------------------------------------------------------------------------------


def _replay_text(report: ReplayReport) -> str:
    out = []
    state = f"{report.status}" if report.status else "state unknown"
    as_of = f" as of {report.as_of}" if report.as_of else ""
    out.append(f"execution {report.execution_id}{as_of}: {state} ({report.level}, provenance {report.provenance})")
    if report.intact:
        sealed = report.covered_by
        seal = (
            f"sealed by checkpoint #{sealed['sequence']} (position {sealed['position']}, signed {sealed['signed_at']})"
            if sealed
            else "not yet under a signed checkpoint"
        )
        out.append(f"verified: its chain is intact; {seal}")
    else:
        out.append(f"TAMPERED: {len(report.problems)} problem(s)")
        out.extend(f"  {problem}" for problem in report.problems)
    if report.code is not None:
        verdict = "matches the code" if report.code_sha256_matches else "DOES NOT match the code"
        out.append(f"code: {len(report.code.splitlines())} line(s), sha256 {report.code_sha256} ({verdict})")
    for finding in report.findings:
        where = f" line {finding.get('line')}" if finding.get("line") else ""
        out.append("  " + visible_line(f"finding {finding.get('level')} {finding.get('analyzer')} {finding.get('rule_id')}{where}: {finding.get('message')}"))
    out.append("timeline:")
    for entry in report.timeline:
        mark = "" if entry.get("verified", True) else "  <- TAMPERED"
        if "error" in entry:
            out.append(f"  {entry['position']:>6} v{entry['version']:<3} {entry['event']:<17} {entry['error']}{mark}")
            continue
        out.append(
            f"  {entry['position']:>6} v{entry['version']:<3} {entry['timestamp']} {entry['event']:<17} "
            f"by {visible_line(str(entry.get('actor', '?')))}  {_details(entry)}{mark}"
        )
    if report.code is not None:  # the submitter's words: framed, its control characters shown
        out.append(framed("the code as recorded", report.code).rstrip("\n"))
    return "\n".join(out)


def _details(entry: dict[str, Any]) -> str:
    skip = {"position", "version", "event", "verified", "timestamp", "actor", "code", "findings"}
    parts = []
    for key, value in entry.items():
        if key in skip:
            continue
        text = value if isinstance(value, str) else json.dumps(value, default=str, separators=(",", ":"))
        parts.append(f"{key}={visible_line(text if len(text) <= 100 else text[:97] + '...')}")
    return " ".join(parts)


# --- export and archive ----------------------------------------------------------------------------


def _export(audit: LedgerAudit, args: argparse.Namespace) -> int:
    if args.execution and (args.from_position or args.to_position):
        raise CannotVerify("--execution chooses its own range: leave out --from and --to")
    options = {"execution": args.execution, "from_position": args.from_position, "to_position": args.to_position}
    if args.without_file_bytes:
        options["without_file_bytes"] = True
    if args.output:
        report = _export_to(audit, Path(args.output), **options)
    else:
        report = audit.export(sys.stdout, **options)
    if not report.intact:
        sys.stderr.write(f"mai-safety: the exported events are TAMPERED ({len(report.problems)} problem(s)):\n")
        for problem in report.problems:
            sys.stderr.write(f"  {problem}\n")
        return EXIT_TAMPERED
    return EXIT_OK


def _export_to(audit: LedgerAudit, path: Path, **options: Any) -> VerificationReport:
    """Write beside the target and rename, so a bundle is never seen half written."""
    partial = path.with_name(f".{path.name}.partial")
    try:
        with partial.open("w", encoding="utf-8") as handle:
            report = audit.export(handle, **options)
            handle.flush()
            os.fsync(handle.fileno())
        partial.replace(path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise CannotVerify(f"cannot write {path} ({exc.strerror}): choose another path") from None
    return report


def _archive(audit: LedgerAudit, args: argparse.Namespace, settings: Settings) -> int:
    config = ledger_config(settings)
    days = args.older_than_days if args.older_than_days is not None else config.policy.archive_after_days
    if days is None or days < 0:
        raise CannotVerify("--older-than-days must be zero or more")
    folder = config.archive_dir
    try:
        folder.mkdir(parents=True, exist_ok=True)
        archived = [match for match in map(_ARCHIVE_NAME.match, os.listdir(folder)) if match]
    except OSError as exc:
        raise CannotVerify(f"the archive folder {folder} cannot be used ({exc.strerror})") from None
    done = max((int(match.group(2)) for match in archived), default=0)
    closing = audit.archive_plan(done, datetime.now(timezone.utc) - timedelta(days=days))
    if closing is None:
        result = {"archived": None, "archived_up_to": done, "folder": str(folder)}
        print(json.dumps(result) if args.json else f"nothing to archive: positions up to {done} are archived in {folder}")
        return EXIT_OK
    path = folder / f"ledger-{done + 1:012d}-{closing.position:012d}.jsonl"
    report = _export_to(audit, path.with_suffix(".checking"), from_position=done + 1, to_position=closing.position)
    written = verify_bundle(_lines(path.with_suffix(".checking")), signing_keys(settings), audit.public_key(create=False))
    if not (report.intact and written.intact and written.complete):
        path.with_suffix(".checking").unlink(missing_ok=True)
        problems = report.problems or written.problems or written.unchecked
        sys.stderr.write(f"mai-safety: positions {done + 1}..{closing.position} were NOT archived: they do not verify:\n")
        for problem in problems:
            sys.stderr.write(f"  {problem}\n")
        return EXIT_TAMPERED
    path.with_suffix(".checking").replace(path)
    result = {"archived": str(path), "from": done + 1, "to": closing.position, "checkpoint": closing.sequence}
    print(
        json.dumps(result)
        if args.json
        else f"archived positions {done + 1}..{closing.position} (signed by checkpoint #{closing.sequence}) to {path}; "
        "nothing was deleted"
    )
    return EXIT_OK


# --- keys and set-up -------------------------------------------------------------------------------


def _public_key(settings: Settings, *, as_json: bool) -> int:
    key = signing_keys(settings).signer().public_key
    if as_json:
        print(json.dumps({"key_id": key.key_id, "pem": key.to_pem(), "path": str(settings.signing_key_path)}))
    else:
        sys.stdout.write(key.to_pem())
        sys.stderr.write(f"key {key.key_id} (private key: {settings.signing_key_path})\n")
    return EXIT_OK


def _init_postgres(args: argparse.Namespace) -> int:
    if args.print_sql:
        from mai_safety.ledger import EVENTS_TABLE, hardening_sql  # Postgres's driver only when asked for

        sys.stdout.write(hardening_sql(args.schema, EVENTS_TABLE, args.service_role))
        return EXIT_OK
    if not args.owner_url:
        raise CannotVerify("--owner-url is required (or --print-sql to see the SQL)")
    password = None
    if args.service_password_file:
        try:
            password = read_regular_file(args.service_password_file, _SMALL_FILE).decode("utf-8").strip()
        except UnreadableInput as exc:
            raise CannotVerify(exc.message) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise CannotVerify(f"{args.service_password_file} cannot be read ({exc})") from None
    done = harden_ledger(args.owner_url, args.service_role, service_password=password, schema=args.schema)
    print(
        f"ledger tables {', '.join(done['tables'])} are owned by {done['owner']} and append-only; "
        f"role {done['service_role']} ({'created' if done['role_created'] else 'kept'}) may only insert and read. "
        f"Point the service at postgresql://{done['service_role']}:PASSWORD@HOST:PORT/DB"
    )
    return EXIT_OK
