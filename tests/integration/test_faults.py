"""Faults in the supervisor itself: the limits must hold when nobody is left to enforce them, and a
race with another run must not look like an outage."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import docker
import pytest

from mai_safety.infrastructure.bootstrap import bootstrap
from mai_safety.infrastructure.sandbox.containers import LABEL_DEADLINE, docker_time

from .cli_helpers import CLI, STARTED_PIDS, suite_policies
from .conftest import containers_of_this_run, settings_for


def _cli_env(database_url: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    env["MAI_SAFETY_DATABASE_URL"] = database_url
    env["MAI_SAFETY_POLICIES"] = str(suite_policies())  # no warm pool: a test's containers are its runs'
    return env


def _wait_for_started(app, execution_id: str, within_s: float = 30.0) -> None:  # type: ignore[no-untyped-def]
    """The container runs before ``Started`` is recorded (it waits idle for the code): a kill in
    between is the other fault, tested below."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            if any(event["event"] == "Started" for event in app.history(execution_id)):
                return
        except Exception:  # noqa: BLE001 - not recorded yet
            pass
        time.sleep(0.05)
    raise AssertionError("Started was never recorded")


def _running_sandbox(docker_client: docker.DockerClient, within_s: float = 30.0):  # type: ignore[no-untyped-def]
    """The run's container, once it exists."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        found = [container for container in containers_of_this_run(docker_client) if container.status == "running"]
        if found:
            return found[0]
        time.sleep(0.05)
    raise AssertionError("the run never started")


def test_a_busy_loop_dies_at_its_deadline_after_its_supervisor_is_killed(
    tmp_path: Path, docker_client: docker.DockerClient
) -> None:
    database_url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    program = tmp_path / "busy.py"
    program.write_text("while True:\n    pass\n")
    env = _cli_env(database_url)
    supervisor = subprocess.Popen(
        CLI + ["run", str(program), "--timeout", "3"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    STARTED_PIDS.add(supervisor.pid)
    app = bootstrap(settings_for(database_url))
    try:
        container = _running_sandbox(docker_client)
        _wait_for_started(app, container.labels["mai-safety.execution"])  # the code runs: now kill its supervisor
        supervisor.send_signal(signal.SIGKILL)
        supervisor.wait(10)
        deadline = float(container.labels[LABEL_DEADLINE])
        for _ in range(200):  # nobody supervises now: the container must end by itself
            container.reload()
            if container.status != "running":
                break
            time.sleep(0.1)
        assert container.status != "running", "the run outlived its deadline with no supervisor"
        finished = docker_time(container.attrs["State"]["FinishedAt"])
        assert finished is not None and finished <= deadline + 2.0, (finished, deadline)
        recovered = subprocess.run(CLI + ["recover", "--json"], env=env, capture_output=True, text=True, timeout=60)
        assert recovered.returncode == 0, recovered.stderr
        (execution_id,) = json.loads(recovered.stdout)["recovered"]
        ending = app.history(execution_id)[-1]
        assert (ending["event"], ending["reason"]) == ("Terminated", "supervisor_lost")
        assert ending["outcome"]["ended_by_deadline"] is True
        assert 2.5 <= ending["outcome"]["duration_s"] <= 6.0
        assert not containers_of_this_run(docker_client)
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
        app.close()


@pytest.mark.alone  # sixteen runs at once (tests/alone.py)
def test_sixteen_runs_at_once_never_mistake_a_removed_container_for_an_outage(tmp_path: Path, docker_client) -> None:  # type: ignore[no-untyped-def]
    program = tmp_path / "quick.py"
    program.write_text("print('done')\n")
    env = _cli_env(f"sqlite:///{tmp_path / 'ledger.sqlite'}")

    def one(_: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run(CLI + ["run", str(program)], env=env, capture_output=True, text=True, timeout=300)

    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(one, range(16)))
    statuses = [result.returncode for result in results]
    assert 5 not in statuses, [result.stderr for result in results if result.returncode == 5]
    assert all(code in (0, 75) for code in statuses), [(r.returncode, r.stderr[-300:]) for r in results if r.returncode]
    assert "Traceback" not in "".join(result.stderr for result in results)


KILL_BEFORE_STARTED = """
import os, sys
from mai_safety.domain.execution import Execution
from mai_safety.infrastructure.bootstrap import bootstrap
from mai_safety.infrastructure.settings import Settings

def die(*args, **kwargs):
    os.kill(os.getpid(), 9)  # the container exists; Started is never recorded

Execution.start = die
app = bootstrap(Settings.from_environment())
app.run(b"print('never')\\n")
"""


def test_a_kill_between_the_container_and_started_is_closed_by_recovery(tmp_path: Path, docker_client) -> None:  # type: ignore[no-untyped-def]
    import sys

    from mai_safety.infrastructure.sandbox import private_work_root

    env = _cli_env(f"sqlite:///{tmp_path / 'ledger.sqlite'}")
    killed = subprocess.run([sys.executable, "-c", KILL_BEFORE_STARTED], env=env, capture_output=True, timeout=120)
    assert killed.returncode == -9, killed.stderr
    left = containers_of_this_run(docker_client)
    assert len(left) == 1
    execution_id = left[0].labels["mai-safety.execution"]
    assert list(private_work_root().glob(f"{execution_id}-*")), "its work folder was left behind"
    recovered = subprocess.run(CLI + ["recover", "--json"], env=env, capture_output=True, text=True, timeout=60)
    assert json.loads(recovered.stdout)["recovered"] == [execution_id]
    app = bootstrap(settings_for(env["MAI_SAFETY_DATABASE_URL"]))
    try:
        ending = app.history(execution_id)[-1]
        assert (ending["event"], ending["reason"]) == ("Terminated", "supervisor_lost")
        verification = app.verify()
        assert verification.intact, verification.problems
    finally:
        app.close()
    assert not containers_of_this_run(docker_client)
    assert not list(private_work_root().glob(f"{execution_id}-*")), "its work folder (a copy of the code) is gone"
    assert oct(private_work_root().stat().st_mode & 0o777) == "0o700"


def _postgres_container(docker_client: docker.DockerClient, port: str):  # type: ignore[no-untyped-def]
    for container in docker_client.containers.list():
        for bindings in (container.attrs["NetworkSettings"]["Ports"] or {}).values():
            if any(binding.get("HostPort") == port for binding in bindings or []):
                return container
    raise AssertionError("the test's Postgres container was not found")


def test_a_paused_database_does_not_freeze_the_limits_and_the_end_is_recorded_when_it_returns(
    postgres_url: str, postgres_server: dict[str, str], docker_client: docker.DockerClient
) -> None:
    import threading

    from mai_safety.domain.limits import RequestedLimits

    database = _postgres_container(docker_client, postgres_server["port"])
    app = bootstrap(settings_for(postgres_url))
    reports: list = []
    runner = threading.Thread(
        target=lambda: reports.append(app.run(b"while True:\n    pass\n", requested=RequestedLimits(timeout_s=3))),
        daemon=True,
    )
    try:
        runner.start()
        sandbox = _running_sandbox(docker_client)
        time.sleep(0.5)  # Started is recorded; samples are being written
        database.pause()
        try:
            time.sleep(7)
            sandbox.reload()
            # The busy loop's 3 s limit was enforced while the ledger could not answer.
            assert sandbox.status != "running" or not _code_is_running(sandbox)
        finally:
            database.unpause()
        runner.join(60)
        (report,) = reports
        assert report.termination_reason == "timeout", report
        assert report.duration_s < 5, report.duration_s
        assert app.verify().intact
    finally:
        if database.status == "paused":
            database.unpause()
        app.close()


def _code_is_running(container) -> bool:  # type: ignore[no-untyped-def]
    try:
        processes = container.top(ps_args="-o pid,user,args")["Processes"] or []
    except docker.errors.APIError:
        return False
    return any("runner.py" in " ".join(process) for process in processes)


class _Relay:
    """A Unix socket in front of the Docker engine's, which the test can cut mid-run. Every socket
    it opens is closed by ``cut_now``, also one accepted while the cut happens."""

    def __init__(self, path: Path, target: str = "/var/run/docker.sock") -> None:
        import socket
        import threading

        self.path, self.target = path, target
        self.listener = socket.socket(socket.AF_UNIX)
        self.listener.bind(str(path))
        self.listener.listen(64)
        self.connections: list = []
        self.lock = threading.Lock()
        self.cut = False
        self.threads = [threading.Thread(target=self._accept, daemon=True)]
        self.threads[0].start()

    def _accept(self) -> None:
        import socket
        import threading

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.socket(socket.AF_UNIX)
            with self.lock:
                self.connections += [client, upstream]
                if self.cut:
                    break
                upstream.connect(self.target)
                for source, sink in ((client, upstream), (upstream, client)):
                    pump = threading.Thread(target=self._pump, args=(source, sink), daemon=True)
                    self.threads.append(pump)
                    pump.start()
        self._close_all()

    @staticmethod
    def _pump(source, sink) -> None:  # type: ignore[no-untyped-def]
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass

    def cut_now(self) -> None:
        with self.lock:
            self.cut = True
        self.listener.close()
        self._close_all()
        for thread in list(self.threads):
            thread.join(5)
        self._close_all()

    def _close_all(self) -> None:
        import socket

        with self.lock:
            connections, self.connections = self.connections, []
        for connection in connections:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            connection.close()


def test_a_lost_docker_connection_is_recorded_as_lost_supervision_not_a_clean_finish(
    tmp_path: Path, docker_client: docker.DockerClient
) -> None:
    relay = _Relay(tmp_path / "docker.sock")
    program = tmp_path / "sleepy.py"
    program.write_text("import time\ntime.sleep(30)\n")
    env = _cli_env(f"sqlite:///{tmp_path / 'ledger.sqlite'}")
    env["DOCKER_HOST"] = f"unix://{relay.path}"
    supervisor = subprocess.Popen(CLI + ["run", str(program), "--json"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    STARTED_PIDS.add(supervisor.pid)
    try:
        _running_sandbox(docker_client)
        time.sleep(1.0)
        relay.cut_now()
        out, err = supervisor.communicate(timeout=60)
        assert supervisor.returncode == 5, (supervisor.returncode, out, err)
        assert "Traceback" not in err
        app = bootstrap(settings_for(env["MAI_SAFETY_DATABASE_URL"]))
        try:
            (execution_id,) = [json.loads(out)["execution_id"]]
            ending = app.history(execution_id)[-1]
            assert (ending["event"], ending["reason"]) == ("Terminated", "supervision_lost"), ending
        finally:
            app.close()
        # The engine answers again (the real socket): the next start ends what was left.
        plain_env = {key: value for key, value in env.items() if key != "DOCKER_HOST"}
        subprocess.run(CLI + ["recover"], env=plain_env, capture_output=True, timeout=60, check=True)
        assert not containers_of_this_run(docker_client)
    finally:
        relay.cut_now()
        if supervisor.poll() is None:
            supervisor.kill()
            supervisor.communicate(timeout=10)
