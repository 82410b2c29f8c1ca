"""Local mode, warm (issue #29, docs/local-service.md): ``mai-safety run`` without ``MAI_SAFETY_URL``
is a client of the owner's per-user service (``http/user_service.py``), which it finds, or starts,
on a Unix socket in the owner's private runtime folder. The service keeps the analyzers, the
verdict cache and the pool warm, over the same ledger, key and witness as the command would use
in-process, and exits after its idle period.

One service per set of settings: the socket's name is a digest of what chooses the ledger, the
key, the witness, the policies and Docker (relative paths made absolute), so a command with other
settings never talks to a service over another ledger. Whatever goes wrong with the service (a
socket nobody listens on, a service of another version, one that does not answer within
``ANSWER_WITHIN_S``, one that does not start within ``START_WITHIN_S``) the command says what it
did in one line on standard error and never waits longer than those bounds; where it cannot use
a service it runs in-process, as ``--no-service`` (or ``MAI_SAFETY_LOCAL_SERVICE=0``) asks.

This module imports no more than a client needs (the standard library's sockets, the CLI's texts):
nothing of the ledger, Docker or the analyzers, and not httpx (see ``OwnerConnection``)."""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import socket
import subprocess
import sys
import time
from base64 import b64encode
from collections.abc import Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote

from mai_safety.domain.errors import DomainError

from .exit_codes import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK, EXIT_UNAVAILABLE
from .run_arguments import NO_SERVICE, add_approve_arguments, add_run_arguments, run_only_flags_given, run_only_refusal
from .run_files import read_input_files, save_output_files
from .terminal import visible_line
from .text import exit_for, print_report
from ..input_files import read_program_file, read_program_stdin

#: ``0`` (or off, no, false): every command runs in-process, as ``--no-service``.
SETTING = "MAI_SAFETY_LOCAL_SERVICE"
#: How long the service waits, with nothing asked of it and nothing running, before it exits.
IDLE_SETTING = "MAI_SAFETY_LOCAL_SERVICE_IDLE_S"
IDLE_S = 300.0
#: How long a service that holds its socket may take to say what it is.
ANSWER_WITHIN_S = 2.0
#: How long a service just started may take to answer (it recovers, starts Semgrep and the pool).
START_WITHIN_S = 30.0
#: What this client speaks (``http/user_service.VERSION``, kept here so that finding imports nothing).
VERSION = "mai-safety-user-service/1"
ACTOR_HEADER = "X-Mai-Safety-Actor"
#: The longest a Unix socket's path may be (sun_path, with its terminating zero).
MAX_SOCKET_PATH = 107

#: The settings that choose the ledger, the key, the witness, the policies and the engine: a
#: service is shared only by commands that agree on all of them.
_CHOOSING = ("PERSISTENCE_MODULE", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOME", "DOCKER_HOST", "DOCKER_CONFIG")
_PATHS = ("MAI_SAFETY_DATA_DIR", "MAI_SAFETY_POLICIES", "MAI_SAFETY_WORK_DIR", "MAI_SAFETY_SIGNING_KEY",
          "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME")
#: The client's own settings: who acts is sent with each request, the rest are this module's.
_NOT_CHOOSING = ("MAI_SAFETY_ACTOR", "MAI_SAFETY_URL", "MAI_SAFETY_TOKEN", "MAI_SAFETY_TOKEN_FILE", SETTING, IDLE_SETTING)


class NoService(Exception):
    """The service cannot be used this time; ``message`` says why and what the command does instead."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def wanted(args: list[str], environ: Mapping[str, str]) -> bool:
    """Whether this command line goes to the per-user service: ``run`` and ``approve`` (the commands
    that run code; ``--database-url`` before the command runs in-process), unless asked not to."""
    if args[:1] not in (["run"], ["approve"]) or NO_SERVICE in args:
        return False
    return environ.get(SETTING, "1").strip().lower() not in ("0", "off", "no", "false")


def service_environment(environ: Mapping[str, str], cwd: str) -> dict[str, str]:
    """The environment the service starts with: the command's, with relative paths made absolute
    (a relative SQLite URL or folder means the command's working folder, not the service's)."""
    env = dict(environ)
    for name in _PATHS:
        if env.get(name) and not os.path.isabs(env[name]):
            env[name] = os.path.join(cwd, env[name])
    url = env.get("MAI_SAFETY_DATABASE_URL", "")
    if url.startswith("sqlite:///") and not url.startswith("sqlite:////"):
        env["MAI_SAFETY_DATABASE_URL"] = "sqlite:///" + os.path.join(cwd, url[len("sqlite:///"):])
    for name in _NOT_CHOOSING:
        env.pop(name, None)
    return env


def fingerprint(env: Mapping[str, str]) -> str:
    chosen = {
        name: value for name, value in env.items()
        if name in _CHOOSING or name.startswith(("MAI_SAFETY_", "POSTGRES_", "SQLITE_"))
    }
    text = json.dumps([VERSION, os.getuid(), sorted(chosen.items())])
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def runtime_folder(environ: Mapping[str, str]) -> Path:
    """The owner's private runtime folder: ``$XDG_RUNTIME_DIR/mai-safety``, or ``run`` in the data folder."""
    runtime = environ.get("XDG_RUNTIME_DIR", "")
    if runtime and os.path.isabs(runtime) and os.path.isdir(runtime):
        return Path(runtime) / "mai-safety"
    data = environ.get("MAI_SAFETY_DATA_DIR") or os.path.join(
        environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share"), "mai-safety"
    )
    return Path(data).absolute() / "run"


def private_folder(path: Path) -> Path:
    """``path`` as a folder only its owner can enter (made 0700, tightened if it is ours and looser);
    NoService when it is not ours or not a folder."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(path)
    except OSError as exc:
        raise NoService(f"cannot make the runtime folder {path} ({exc.strerror})") from None
    if not os.path.isdir(path) or os.path.islink(path) or info.st_uid != os.getuid():
        raise NoService(f"the runtime folder {path} is not a folder of this user's")
    if info.st_mode & 0o077:
        os.chmod(path, 0o700)
    return path


class Unanswered(Exception):
    """The service did not answer: ``refused`` when nobody listens on the socket (or it is gone)."""

    def __init__(self, message: str, *, refused: bool = False) -> None:
        super().__init__(message)
        self.refused = refused


class OwnerConnection:
    """HTTP/1.1 to the service over its Unix socket, one request per connection, as the owner: no
    token (the socket's folder is the owner's alone), who acts named in ``X-Mai-Safety-Actor``.
    The standard library's sockets rather than httpx: a command started for one run does not pay
    httpx's import (~60 ms of a ~300 ms command); the server is uvicorn, the requests are ours."""

    def __init__(self, path: Path, actor: str) -> None:
        self.path = path
        self._actor = f"{ACTOR_HEADER}: {actor}\r\n" if actor and actor.isprintable() else ""

    def __enter__(self) -> OwnerConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def request(self, method: str, target: str, body: bytes = b"", *, timeout: float | None) -> tuple[int, bytes]:
        """The answer's status and body; Unanswered when there is none within ``timeout`` (None: no bound)."""
        head = (
            f"{method} {target} HTTP/1.1\r\nHost: mai-safety.local\r\nConnection: close\r\n{self._actor}"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(ANSWER_WITHIN_S)
            try:
                sock.connect(str(self.path))
            except (ConnectionRefusedError, FileNotFoundError) as exc:
                raise Unanswered(f"nobody listens on {self.path} ({exc.strerror})", refused=True) from None
            except OSError as exc:
                raise Unanswered(f"cannot reach {self.path} ({exc})") from None
            sock.settimeout(timeout)
            try:
                sock.sendall(head.encode() + body)
                chunks = []
                while chunk := sock.recv(65536):
                    chunks.append(chunk)
            except OSError as exc:  # socket.timeout included
                raise Unanswered(f"no answer from {self.path} ({exc or 'timed out'})") from None
        return _parsed(b"".join(chunks), self.path)

    def local(self, method: str, route: str, body: Any = None, *, timeout: float | None = None) -> Any:
        status, data = self.request(method, f"/v1/local{route}", json.dumps(body).encode() if body is not None else b"", timeout=timeout)
        if status != 200:
            raise Unanswered(f"the service answered {status} to {method} /v1/local{route}: {data[:200]!r}")
        return json.loads(data)

    def download(self, execution_id: str, name: str) -> bytes:
        status, data = self.request("GET", f"/v1/executions/{quote(execution_id, safe='')}/files/{quote(name, safe='/')}", timeout=None)
        if status != 200:
            raise _Failed(f"cannot fetch the output file {name!r} (the service answered {status})", EXIT_BAD_INPUT)
        return data


def _parsed(answer: bytes, path: Path) -> tuple[int, bytes]:
    head, separator, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if not separator or len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        raise Unanswered(f"what answers at {path} does not speak HTTP")
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = _dechunked(body)
    return int(parts[1]), body


def _dechunked(body: bytes) -> bytes:
    out, rest = [], body
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out.append(rest[:size])
        rest = rest[size + 2:]
    return b"".join(out)


@contextmanager
def _held(lock: Path, within_s: float) -> Iterator[None]:
    """One command at a time finds or starts the service (the others wait, within the bound)."""
    fd = os.open(lock, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + within_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise NoService(f"another command has been starting the per-user service for {within_s:g} s") from None
                time.sleep(0.02)
        yield
    finally:
        os.close(fd)


def _probe(client: OwnerConnection, wanted_print: str) -> str:
    """``absent``, ``stale`` (a socket file nobody listens on), ``silent`` (no answer in time),
    ``other`` (a service of another version or other settings) or ``ours``."""
    if not os.path.exists(client.path):
        return "absent"
    try:
        described = client.local("GET", "", timeout=ANSWER_WITHIN_S)
    except Unanswered as exc:
        return "stale" if exc.refused else "silent"
    except ValueError:
        return "other"
    same = isinstance(described, dict) and described.get("version") == VERSION and described.get("fingerprint") == wanted_print
    return "ours" if same else "other"


def find_or_start(environ: Mapping[str, str], actor: str) -> tuple[OwnerConnection, str | None]:
    """A client of the service for these settings, started if none runs, and the one line to
    say about it (None when there is nothing to say); NoService when it cannot be used."""
    env = service_environment(environ, os.getcwd())
    digest = fingerprint(env)
    folder = private_folder(runtime_folder(environ))
    path = folder / f"s-{digest}.sock"
    if len(os.fsencode(path)) > MAX_SOCKET_PATH:
        raise NoService(f"the runtime folder's path is too long for a socket ({path})")
    client = OwnerConnection(path, actor)
    with _held(folder / f"s-{digest}.lock", START_WITHIN_S):
        return client, _ready(client, env, digest, folder)


def _ready(client: OwnerConnection, env: dict[str, str], digest: str, folder: Path) -> str | None:
    state = _probe(client, digest)
    if state == "ours":
        return None
    if state == "silent":
        raise NoService(f"the per-user service at {client.path} did not answer within {ANSWER_WITHIN_S:g} s")
    note = None
    if state == "other":
        try:
            client.local("POST", "/stop", timeout=ANSWER_WITHIN_S)
        except (Unanswered, ValueError):
            pass
        raise NoService(f"a per-user service of another version answers at {client.path}: it was asked to stop")
    if state == "stale":
        client.path.unlink(missing_ok=True)
        note = f"removed a stale per-user service socket ({client.path}) and started a new service"
    _start(client, env, digest, folder)
    return note


def _start(client: OwnerConnection, env: dict[str, str], digest: str, folder: Path) -> None:
    idle = os.environ.get(IDLE_SETTING, "") or str(IDLE_S)
    log = folder / f"s-{digest}.log"
    log_fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "mai_safety.infrastructure.http.user_service", str(client.path), idle, digest],
            env=env, cwd=folder, stdin=subprocess.DEVNULL, stdout=log_fd, stderr=log_fd, start_new_session=True,
        )
    finally:
        os.close(log_fd)
    deadline = time.monotonic() + START_WITHIN_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise NoService(f"the per-user service did not start ({_last_line(log)})")
        if _probe(client, digest) == "ours":
            return
        time.sleep(0.02)
    raise NoService(f"the per-user service did not answer within {START_WITHIN_S:g} s of its start (its log: {log})")


def _last_line(log: Path) -> str:
    try:
        lines = [line for line in log.read_text(errors="replace").splitlines() if line.strip()]
    except OSError:
        lines = []
    return lines[-1].removeprefix("mai-safety: ") if lines else "it said nothing"


# --- run, through the service --------------------------------------------------------------------


def run(client: OwnerConnection, args: argparse.Namespace) -> int:
    """``run`` as the local CLI does it (local.py ``_run``): the same reading of FILE, the same
    application call in the service, the same texts and exit statuses."""
    max_bytes = int(os.environ.get("MAI_SAFETY_MAX_CODE_BYTES") or 1024 * 1024)
    if args.file == "-":
        code, source = read_program_stdin(sys.stdin.buffer, max_bytes), "standard input"
    else:
        code, source = read_program_file(args.file, max_bytes, follow_symlinks=args.follow_symlinks), args.file
    body = {
        "code": b64encode(code).decode(), "source": source, "provenance": args.provenance, "limits": _limits(args),
        "confirm": args.confirm, "override": args.override, "network": args.network, "requirements": args.requirement,
        "revises": args.revises, "files": [(name, b64encode(data).decode()) for name, data in read_input_files(args)],
        "image": args.image,
    }
    answer = client.local("POST", "/run", body)
    report = _report(answer)
    if report.get("status") == "awaiting_override" and report.get("override_kind") == "confirmation" and _can_prompt(args):
        _print(report, as_json=False)
        approve = _ask("Run this HIGH code anyway? [y/N] ")
        explanation = "confirmed at the terminal" if approve else "declined at the terminal"
        report = _report(client.local("POST", "/answer", {"execution_id": report["execution_id"], "approve": approve, "explanation": explanation}))
    _print(report, as_json=args.json)
    save_output_files(args, report, lambda name: client.download(report["execution_id"], name))
    return exit_for(report)


class _Failed(Exception):
    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message, self.status = message, status


def _report(answer: dict[str, Any]) -> dict[str, Any]:
    if "error" in answer:
        raise _Failed(answer["error"], int(answer["exit"]))
    report: dict[str, Any] = answer["report"]
    return report


def _limits(args: argparse.Namespace) -> dict[str, float | int | None]:
    from mai_safety.domain.errors import LimitOutOfPolicy
    from mai_safety.domain.limits import parse_size  # only when a size is given: it costs ~12 ms

    for flag, value in (("--timeout", args.timeout), ("--cpus", args.cpus), ("--pids", args.pids), ("--cpu-seconds", args.cpu_seconds)):
        if value is not None and value <= 0:
            raise LimitOutOfPolicy(f"{flag} must be more than zero, got {value:g}")
    return {
        "cpus": args.cpus, "memory_bytes": parse_size(args.memory, "--memory") if args.memory else None, "pids": args.pids,
        "timeout_s": args.timeout, "output_bytes": parse_size(args.output_limit, "--output-limit") if args.output_limit else None,
        "cpu_seconds": args.cpu_seconds,
    }


def _print(report: dict[str, Any], *, as_json: bool) -> None:
    if as_json:
        print(json.dumps(report))
        return
    if report.get("override_kind") == "override":
        how = f"`mai-safety approve {report['execution_id']} --explanation WHY` by an allowed actor, or `run --override WHY`"
    else:
        how = f"`mai-safety approve {report['execution_id']}`, or `run --confirm`"
    print_report(report, how_to_answer=f"{how} (deny with `mai-safety deny`)")


def _can_prompt(args: argparse.Namespace) -> bool:
    return not args.json and args.file != "-" and sys.stdin.isatty() and sys.stdout.isatty()


def _ask(question: str) -> bool:
    try:
        return input(question).strip().lower() in ("y", "yes")
    except EOFError:
        return False


class _RunParser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # as the local CLI: one line, documented status
        self.exit(EXIT_BAD_INPUT, f"mai-safety: {message} (see --help)\n")


def approve(client: OwnerConnection, args: argparse.Namespace) -> int:
    """``approve`` as the local CLI does it: the application's ``approve`` of what was submitted."""
    report = _report(client.local("POST", "/answer", {"execution_id": args.execution_id, "approve": True, "explanation": args.explanation}))
    _print(report, as_json=args.json)
    return exit_for(report)


def main(args: list[str]) -> int | None:
    """``mai-safety run|approve ...`` through the service; None when the command is to run
    in-process (the service could not be used: the line saying why is written already)."""
    parser = _RunParser(prog=f"mai-safety {args[0]}", description="Through the per-user service (docs/local-service.md).")
    (add_run_arguments if args[0] == "run" else add_approve_arguments)(parser)
    parsed = parser.parse_args(args[1:])
    command = run if args[0] == "run" else approve
    if args[0] == "approve" and run_only_flags_given(parsed):  # refused before anything is started, as in-process
        _say(run_only_refusal(parsed, run_only_flags_given(parsed)))
        return EXIT_BAD_INPUT
    try:
        client, note = find_or_start(os.environ, os.environ.get("MAI_SAFETY_ACTOR", ""))
    except NoService as exc:
        _say(f"{exc.message}; running in this process")
        return None
    if note:
        _say(note)
    try:
        with client:
            return command(client, parsed)
    except _Failed as exc:
        _say(exc.message)
        return exc.status
    except DomainError as exc:  # bad input read here (FILE, sizes, limits)
        from .hints import cli_message

        _say(cli_message(exc))
        return EXIT_BAD_INPUT
    except (Unanswered, ValueError) as exc:
        _say(f"the per-user service failed during the command ({exc}); what it recorded is in the ledger")
        return EXIT_UNAVAILABLE
    except KeyboardInterrupt:
        _say("interrupted")
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback
        _say(f"internal error: {type(exc).__name__}: {exc}. Please report it.")
        return EXIT_INTERNAL


def _say(message: str) -> None:
    sys.stderr.write(f"mai-safety: {visible_line(message)}\n")
    sys.stderr.flush()


def stop(path: Path) -> None:
    """Asks the service at ``path`` to stop (tests and ``bench/``): it drains and exits."""
    OwnerConnection(path, "").local("POST", "/stop", timeout=ANSWER_WITHIN_S)
