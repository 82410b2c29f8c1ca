"""`mai-safety status` as monitoring calls it: the real engine, a real ledger, and real outages."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import docker
import pytest

from mai_safety.infrastructure.sandbox import gvisor_status

from .cli_helpers import run_cli
from .conftest import GVISOR


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{tmp_path / 'ledger.sqlite'}"}


def test_status_says_all_is_well_when_docker_the_images_and_the_ledger_answer(env: dict[str, str]) -> None:
    result = run_cli(["status", "--json"], env)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["docker"]["answers"] and all(report["docker"]["images"].values())
    assert report["ledger"]["answers"] and report["ledger"]["head"] == 0
    assert report["docker"]["gvisor"]["available"] == bool(GVISOR.get("available"))
    assert set(report["analyzers"]) == {"bandit", "semgrep"}


def test_status_after_a_run_names_the_head_and_its_newest_checkpoint(env: dict[str, str]) -> None:
    assert run_cli(["run", "-"], env, stdin=b"print(1)\n").returncode == 0
    report = json.loads(run_cli(["status", "--json"], env).stdout)
    assert report["ledger"]["head"] >= 3
    assert report["ledger"]["newest_checkpoint"] == report["ledger"]["head"]
    assert report["ledger"]["signing_key"] == "readable"


def test_status_reports_a_docker_engine_that_does_not_answer_with_exit_5(env: dict[str, str], tmp_path: Path) -> None:
    result = run_cli(["status"], {**env, "DOCKER_HOST": f"unix://{tmp_path / 'no-engine.sock'}"})
    assert result.returncode == 5, result.stdout + result.stderr
    assert "docker:    DOES NOT ANSWER" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_status_reports_a_ledger_database_that_does_not_answer_with_exit_5() -> None:
    result = run_cli(["status", "--json"], {"MAI_SAFETY_DATABASE_URL": "postgresql://mai:secret@127.0.0.1:9/none"})
    assert result.returncode == 5, result.stdout + result.stderr
    ledger = json.loads(result.stdout)["ledger"]
    assert ledger["answers"] is False and "does not answer" in ledger["reason"]
    assert "secret" not in result.stdout  # the credentials never reach the report


def test_status_names_the_gvisor_version_of_the_binary_the_engine_runs(env: dict[str, str], docker_client: docker.DockerClient) -> None:
    entry = (docker_client.info().get("Runtimes") or {}).get("runsc")
    if entry is None:
        pytest.skip("the engine has no runsc runtime to name the version of")
    said = subprocess.run([entry["path"], "--version"], capture_output=True, text=True, check=True).stdout.splitlines()[0]
    report = json.loads(run_cli(["status", "--json"], env).stdout)
    assert report["docker"]["gvisor"]["path"] == entry["path"]
    assert report["docker"]["gvisor"]["version"] == said  # "runsc version 0.0~20221219.0" here
    text = run_cli(["status"], env).stdout
    gvisor_line = next(line for line in text.splitlines() if line.startswith("gvisor:"))
    assert f"checked {entry['path']}: {said}" in gvisor_line


class _EngineWithRunscElsewhere:
    """An engine whose runsc is a binary this process cannot see (the compose deployment's case)."""

    def info(self) -> dict[str, object]:
        return {"Runtimes": {"runsc": {"path": "/nowhere/runsc", "runtimeArgs": ["--network=none", "--host-uds=open"]}}}


def test_status_says_the_gvisor_version_is_unknown_when_the_engines_binary_is_not_visible_here() -> None:
    status = gvisor_status(_EngineWithRunscElsewhere())
    assert status["available"] is True
    assert status["version"] == "unknown: /nowhere/runsc is not visible from here"
