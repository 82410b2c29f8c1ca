"""Two deployments on one host, each with its own ledger, share the Docker engine (issue 24, item 7):
a sweep removes only the containers labelled with its own ledger's identity, so that another
ledger's orphan stays until that ledger records how its run ended."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import docker

from mai_safety.infrastructure.sandbox.containers import LABEL_EXECUTION, LABEL_LEDGER, LABEL_MANAGED, LABEL_SUPERVISOR

from .cli_helpers import CLI, STARTED_PIDS, run_cli, suite_policies

SLEEPER = "import time\ntime.sleep(25)\n"


def _env(ledger: Path) -> dict[str, str]:
    return {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{ledger}", "MAI_SAFETY_POLICIES": str(suite_policies())}


def _orphan(docker_client: docker.DockerClient, ledger: Path, program: Path) -> Any:
    """A run of ``ledger``'s whose supervisor is killed (SIGKILL) while its code runs: its container."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    env.update(_env(ledger))
    supervisor = subprocess.Popen(CLI + ["run", str(program), "--timeout", "30"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    STARTED_PIDS.add(supervisor.pid)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            found = [
                container
                for container in docker_client.containers.list(filters={"label": f"{LABEL_MANAGED}=1"}, ignore_removed=True)
                if container.labels.get(LABEL_SUPERVISOR, "").split("/")[1:2] == [str(supervisor.pid)]
            ]
            if found:
                history = run_cli(["history", found[0].labels[LABEL_EXECUTION], "--json"], env=_env(ledger))
                if history.returncode == 0 and any(event["event"] == "Started" for event in json.loads(history.stdout)):
                    return found[0]
            time.sleep(0.1)
        raise AssertionError("the run never started")
    finally:
        supervisor.send_signal(signal.SIGKILL)
        supervisor.wait(10)


def _exists(container: Any) -> bool:
    try:
        container.reload()
        return True
    except docker.errors.NotFound:
        return False


def test_each_ledgers_sweep_removes_only_its_own_orphan(tmp_path: Path, docker_client: docker.DockerClient) -> None:
    program = tmp_path / "sleeper.py"
    program.write_text(SLEEPER)
    first, second = tmp_path / "service.sqlite", tmp_path / "local.sqlite"
    orphans = []
    try:
        orphans.append(_orphan(docker_client, first, program))
        orphans.append(_orphan(docker_client, second, program))
        mine, theirs = orphans

        recovered = run_cli(["recover", "--json"], env=_env(first))
        assert recovered.returncode == 0, recovered.stderr
        assert json.loads(recovered.stdout)["recovered"] == [mine.labels[LABEL_EXECUTION]]
        assert not _exists(mine), "its own ledger's orphan is left"
        assert _exists(theirs), "the sweep removed another ledger's container while that ledger holds its run open"

        recovered = run_cli(["recover", "--json"], env=_env(second))
        assert recovered.returncode == 0, recovered.stderr
        assert json.loads(recovered.stdout)["recovered"] == [theirs.labels[LABEL_EXECUTION]]
        assert not _exists(theirs)
        assert mine.labels[LABEL_LEDGER] != theirs.labels[LABEL_LEDGER], "two ledgers, one identity"
        ending = json.loads(run_cli(["history", theirs.labels[LABEL_EXECUTION], "--json"], env=_env(second)).stdout)[-1]
        assert (ending["event"], ending["reason"]) == ("Terminated", "supervisor_lost")
        assert ending["outcome"]["duration_s"] > 0, "recorded as if its container had been gone"
    finally:
        for container in orphans:
            if _exists(container):
                container.remove(force=True)
