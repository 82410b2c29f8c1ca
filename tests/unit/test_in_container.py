"""mai-safety in a container beside the engine (the compose deployment, docs/decisions/0017): what
it refuses, and why, before it asks the engine for anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from mai_safety.application.errors import ConfigurationError, SandboxUnavailable
from mai_safety.domain.limits import HostPolicy
from mai_safety.domain.network import NetworkMode, NetworkRequest
from mai_safety.infrastructure.docker_sandbox import DockerSandbox
from mai_safety.infrastructure.settings import Settings

HOST = HostPolicy(memory_share=0.5, cpu_share=0.5, max_concurrent=2, queue=2, queue_wait_s=1.0)


def sandbox(tmp_path: Path, **options: object) -> DockerSandbox:
    return DockerSandbox("mai-safety/sandbox:1", HOST, lock_path=tmp_path / "admission.lock", **options)


def test_inside_a_container_a_run_without_a_shared_work_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    with pytest.raises(SandboxUnavailable, match="MAI_SAFETY_WORK_DIR is not set"):
        sandbox(tmp_path, in_container=True).choose_runtime("runc", NetworkRequest())


def test_inside_a_container_with_a_shared_work_folder_runs_are_made_there_but_deps_is_refused(tmp_path: Path) -> None:
    shared = sandbox(tmp_path, in_container=True, work_dir=tmp_path / "work")
    assert shared.choose_runtime("runc", NetworkRequest())["name"] == "runc"
    assert shared._work_root.parent == tmp_path / "work"
    with pytest.raises(SandboxUnavailable, match="--network deps is not available"):
        shared.choose_runtime("auto", NetworkRequest(mode=NetworkMode.DEPS))


def test_outside_a_container_nothing_changes(tmp_path: Path) -> None:
    here = sandbox(tmp_path, work_dir=tmp_path / "work")
    assert here.choose_runtime("runc", NetworkRequest(mode=NetworkMode.DEPS))["name"] == "runc"


def test_the_settings_read_the_work_folder_and_refuse_an_unclear_flag(tmp_path: Path) -> None:
    settings = Settings.from_environment({"MAI_SAFETY_WORK_DIR": str(tmp_path), "MAI_SAFETY_IN_CONTAINER": "1"})
    assert (settings.work_dir, settings.in_container) == (tmp_path, True)
    assert Settings.from_environment({}).in_container is False
    with pytest.raises(ConfigurationError, match="MAI_SAFETY_IN_CONTAINER"):
        Settings.from_environment({"MAI_SAFETY_IN_CONTAINER": "maybe"})
