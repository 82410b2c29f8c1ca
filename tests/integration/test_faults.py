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

from mai_safety.infrastructure.bootstrap import bootstrap
from mai_safety.infrastructure.docker_sandbox import LABEL_DEADLINE, _docker_time

from .cli_helpers import CLI
from .conftest import settings_for


def _cli_env(database_url: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    env["MAI_SAFETY_DATABASE_URL"] = database_url
    return env


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
    app = bootstrap(settings_for(database_url))
    try:
        container = None
        for _ in range(300):
            found = docker_client.containers.list(filters={"label": "mai-safety.managed=1"})
            if found:
                container = found[0]
                break
            time.sleep(0.1)
        assert container is not None, "the run never started"
        supervisor.send_signal(signal.SIGKILL)
        supervisor.wait(10)
        deadline = float(container.labels[LABEL_DEADLINE])
        for _ in range(200):  # nobody supervises now: the container must end by itself
            container.reload()
            if container.status != "running":
                break
            time.sleep(0.1)
        assert container.status != "running", "the run outlived its deadline with no supervisor"
        finished = _docker_time(container.attrs["State"]["FinishedAt"])
        assert finished is not None and finished <= deadline + 2.0, (finished, deadline)
        recovered = subprocess.run(CLI + ["recover", "--json"], env=env, capture_output=True, text=True, timeout=60)
        assert recovered.returncode == 0, recovered.stderr
        (execution_id,) = json.loads(recovered.stdout)["recovered"]
        ending = app.history(execution_id)[-1]
        assert (ending["event"], ending["reason"]) == ("Terminated", "supervisor_lost")
        assert ending["outcome"]["ended_by_deadline"] is True
        assert 2.5 <= ending["outcome"]["duration_s"] <= 6.0
        assert not docker_client.containers.list(all=True, filters={"label": "mai-safety.managed=1"})
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
        app.close()


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
    assert all(code in (0, 75) for code in statuses), [(r.returncode, r.stderr) for r in results]
    assert "Traceback" not in "".join(result.stderr for result in results)
