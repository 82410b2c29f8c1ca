"""Local mode, warm (issue #29): ``mai-safety run`` without MAI_SAFETY_URL is a client of the owner's
per-user service on a Unix socket, found or started, in a 0700 runtime folder. Each test has a
runtime folder of its own (never a service shared with another test) and stops what it started.

The console script's door is used (``entry``): ``python -m mai_safety.infrastructure.cli``, which
the rest of the suite runs, stays in-process and keeps its tests' meaning."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from mai_safety.infrastructure.cli import user_service

from .cli_helpers import STARTED_PIDS, gate_test_policies, suite_policies

ENTRY = [sys.executable, "-m", "mai_safety.infrastructure.cli.entry"]
ROOT = os.geteuid() == 0
HELLO = "print('hello')\n"


@pytest.fixture
def world(tmp_path: Path) -> Iterator[dict[str, str]]:
    """The settings of one owner: a ledger, key and witness of the test's own, the suite's
    policies (no pool), and a runtime folder another user could pass through (0755), short
    enough for a socket's path. Every per-user service started in it is stopped at the end."""
    runtime = Path(tempfile.mkdtemp(prefix="mr-", dir="/tmp"))
    os.chmod(runtime, 0o755)
    env = {
        "MAI_SAFETY_DATA_DIR": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_RUNTIME_DIR": str(runtime),
        "MAI_SAFETY_POLICIES": str(suite_policies()),
    }
    (tmp_path / "hello.py").write_text(HELLO)
    try:
        yield env
    finally:
        stop_services(runtime / "mai-safety")
        shutil.rmtree(runtime, ignore_errors=True)


def console(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    full_env = {key: value for key, value in os.environ.items() if not key.startswith(("MAI_SAFETY_", "XDG_"))}
    full_env.update(env)
    with subprocess.Popen(ENTRY + args, env=full_env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        STARTED_PIDS.add(process.pid)
        try:
            stdout, stderr = process.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def socket_of(env: dict[str, str], cwd: Path) -> Path:
    """Where the command finds the service for these settings (as user_service computes it)."""
    full = {key: value for key, value in os.environ.items() if not key.startswith(("MAI_SAFETY_", "XDG_"))}
    full.update(env)
    digest = user_service.fingerprint(user_service.service_environment(full, str(cwd)))
    return Path(env["XDG_RUNTIME_DIR"]) / "mai-safety" / f"s-{digest}.sock"


def describe(path: Path) -> dict[str, object]:
    with httpx.Client(transport=httpx.HTTPTransport(uds=str(path)), base_url="http://local", timeout=5) as client:
        answer: dict[str, object] = client.get("/v1/local").json()
        return answer


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (OSError, IndexError):
        return False


def stop_services(folder: Path, within_s: float = 45.0) -> None:
    """Stops every service listening in ``folder``, and waits for each to end (killed past the bound)."""
    for path in folder.glob("*.sock") if folder.is_dir() else []:
        try:
            pid = int(describe(path)["pid"])  # type: ignore[arg-type]
            user_service.stop(path)
        except (OSError, httpx.HTTPError, ValueError, KeyError):
            continue
        deadline = time.monotonic() + within_s
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def test_run_starts_the_per_user_service_then_uses_it_warm(world: dict[str, str], tmp_path: Path) -> None:
    first = console(["run", "hello.py"], world, tmp_path)
    assert first.returncode == 0, first.stderr
    assert "hello" in first.stdout and first.stderr == ""
    path = socket_of(world, tmp_path)
    folder = path.parent
    assert oct(folder.stat().st_mode & 0o777) == "0o700" and oct(path.stat().st_mode & 0o777) == "0o600"
    pid = describe(path)["pid"]
    second = console(["run", "hello.py", "--json"], {**world, "MAI_SAFETY_ACTOR": "alice"}, tmp_path)
    assert second.returncode == 0 and json.loads(second.stdout)["status"] == "completed"
    assert describe(path)["pid"] == pid  # the same service, warm
    history = console(["history", json.loads(second.stdout)["execution_id"], "--json"], world, tmp_path)
    assert json.loads(history.stdout)[0]["actor"] == "alice"  # who acts is the owner's CLI's, as in-process


def test_the_service_says_what_in_process_says_for_blocked_code_and_bad_input(world: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "blocked.py").write_text("import os\nos.system('rm -rf / --no-preserve-root')\n")
    answers = []
    for extra in ([], ["--no-service"]):
        blocked = console(["run", "blocked.py", *extra], world, tmp_path)
        unknown = console(["run", "hello.py", "--revises", "00000000-0000-0000-0000-000000000000", *extra], world, tmp_path)
        answers.append((blocked.returncode, _without_ids(blocked.stdout), unknown.returncode, unknown.stderr))
    assert answers[0] == answers[1]
    assert answers[0][0] == 3 and answers[0][2] == 2


def _without_ids(text: str) -> str:
    return re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "ID", text)


def test_no_service_and_the_setting_run_in_process(world: dict[str, str], tmp_path: Path) -> None:
    for args, env in ((["run", "hello.py", "--no-service"], world), (["run", "hello.py"], {**world, "MAI_SAFETY_LOCAL_SERVICE": "0"})):
        done = console(args, env, tmp_path)
        assert done.returncode == 0 and "hello" in done.stdout, done.stderr
    assert not socket_of(world, tmp_path).exists()


def test_a_stale_socket_is_removed_and_a_new_service_started_in_one_line(world: dict[str, str], tmp_path: Path) -> None:
    path = socket_of(world, tmp_path)
    path.parent.mkdir(mode=0o700, parents=True)
    left = socket.socket(socket.AF_UNIX)
    left.bind(str(path))
    left.close()  # a service that died without removing its socket
    done = console(["run", "hello.py"], world, tmp_path)
    assert done.returncode == 0 and "hello" in done.stdout
    assert done.stderr.count("\n") == 1 and "removed a stale per-user service socket" in done.stderr
    assert describe(path)["version"] == user_service.VERSION


def test_a_service_that_does_not_answer_is_left_and_the_command_runs_in_process(world: dict[str, str], tmp_path: Path) -> None:
    path = socket_of(world, tmp_path)
    path.parent.mkdir(mode=0o700, parents=True)
    silent = socket.socket(socket.AF_UNIX)
    silent.bind(str(path))
    silent.listen(8)  # accepts nothing, answers nothing: a stopped or wedged service
    try:
        done = console(["run", "hello.py"], world, tmp_path)
    finally:
        silent.close()
        path.unlink()
    assert done.returncode == 0 and "hello" in done.stdout
    assert done.stderr.count("\n") == 1 and "did not answer within 2 s; running in this process" in done.stderr


def test_a_service_of_another_version_is_asked_to_stop_and_the_command_runs_in_process(world: dict[str, str], tmp_path: Path) -> None:
    path = socket_of(world, tmp_path)
    path.parent.mkdir(mode=0o700, parents=True)
    asked: list[str] = []
    other = _answering(path, asked, b'{"version": "mai-safety-user-service/0", "fingerprint": "x", "pid": 1}')
    try:
        done = console(["run", "hello.py"], world, tmp_path)
    finally:
        other.close()
        path.unlink()
    assert done.returncode == 0 and "hello" in done.stdout
    assert done.stderr.count("\n") == 1 and "of another version" in done.stderr
    assert any(line.startswith("POST /v1/local/stop") for line in asked)


def _answering(path: Path, asked: list[str], body: bytes) -> socket.socket:
    """A listener at ``path`` that answers every request with ``body``, noting each request line."""
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(path))
    listener.listen(8)

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            with connection:
                asked.append(connection.recv(65536).decode(errors="replace").split("\r\n")[0])
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))

    threading.Thread(target=serve, daemon=True).start()
    return listener


def test_another_local_user_cannot_reach_the_owners_service(world: dict[str, str], tmp_path: Path) -> None:
    (Path(world["XDG_RUNTIME_DIR"]) / "mai-safety").mkdir(mode=0o755)  # left looser by someone: tightened
    done = console(["run", "hello.py"], world, tmp_path)
    assert done.returncode == 0, done.stderr
    path = socket_of(world, tmp_path)
    assert oct(path.parent.stat().st_mode & 0o777) == "0o700"
    if not ROOT:
        pytest.skip("connecting as a second local user needs root to switch to it (setpriv)")
    attempt = subprocess.run(
        ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", sys.executable, "-c",
         f"import socket; s = socket.socket(socket.AF_UNIX); s.connect({str(path)!r})"],
        capture_output=True, text=True, timeout=30, check=False,
    )
    assert attempt.returncode != 0 and "PermissionError" in attempt.stderr, attempt


def test_the_service_exits_by_itself_after_its_idle_period(world: dict[str, str], tmp_path: Path) -> None:
    done = console(["run", "hello.py"], {**world, "MAI_SAFETY_LOCAL_SERVICE_IDLE_S": "1"}, tmp_path)
    assert done.returncode == 0, done.stderr
    path = socket_of(world, tmp_path)
    pid = int(describe(path)["pid"])  # type: ignore[arg-type]
    deadline = time.monotonic() + 60
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _alive(pid) and not path.exists()


def test_a_run_through_the_service_imports_nothing_of_the_ledger_docker_or_the_analyzers(world: dict[str, str], tmp_path: Path) -> None:
    """The command is a client: what assesses, runs and records is the service's (issue #29)."""
    assert console(["run", "hello.py"], world, tmp_path).returncode == 0  # the service is up
    probe = (
        "import json, sys\nfrom mai_safety.infrastructure.cli.entry import main\nstatus = main(['run', 'hello.py'])\n"
        "print(json.dumps([status, sorted({name.split('.')[0] for name in sys.modules})]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], env={**{k: v for k, v in os.environ.items() if not k.startswith(("MAI_SAFETY_", "XDG_"))}, **world},
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )
    status, loaded = json.loads(done.stdout.splitlines()[-1])
    assert status == 0 and "hello" in done.stdout
    assert not set(loaded) & {"eventsourcing", "docker", "bandit", "semgrep", "matplotlib", "fastapi", "uvicorn", "yaml", "cryptography"}


def test_a_service_stopped_by_a_signal_drains_and_leaves_no_socket(world: dict[str, str], tmp_path: Path) -> None:
    assert console(["run", "hello.py"], world, tmp_path).returncode == 0
    path = socket_of(world, tmp_path)
    pid = int(describe(path)["pid"])  # type: ignore[arg-type]
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 60
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _alive(pid) and not path.exists()


def test_approve_goes_through_the_service_and_runs_what_was_submitted(world: dict[str, str], tmp_path: Path) -> None:
    env = {**world, "MAI_SAFETY_POLICIES": str(gate_test_policies(tmp_path))}
    (tmp_path / "high.py").write_text("x = eval('6 * 7')\nprint(x)\n")
    waiting = console(["run", "high.py", "--json"], env, tmp_path)
    assert waiting.returncode == 3 and json.loads(waiting.stdout)["status"] == "awaiting_override", waiting.stderr
    execution_id = json.loads(waiting.stdout)["execution_id"]
    refused = console(["approve", execution_id, "--memory", "64m"], env, tmp_path)
    assert refused.returncode == 2 and "approve takes no --memory" in refused.stderr
    approved = console(["approve", execution_id, "--json"], env, tmp_path)
    assert approved.returncode == 0 and json.loads(approved.stdout)["status"] == "completed", approved.stderr
    assert "42" in json.loads(approved.stdout)["stdout"]
