"""mai-safety in a container beside the engine (the compose deployment, docs/decisions/0017): what
it refuses, and why, before it asks the engine for anything."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from mai_safety.application.errors import ConfigurationError, SandboxUnavailable
from mai_safety.domain.limits import HostPolicy
from mai_safety.domain.network import NetworkMode, NetworkRequest
from mai_safety.infrastructure.sandbox import DockerSandbox
from mai_safety.infrastructure.settings import Settings

HOST = HostPolicy(memory_share=0.5, cpu_share=0.5, max_concurrent=2, queue=2, queue_wait_s=1.0)


@pytest.fixture
def short() -> Iterator[Path]:
    """A work folder short enough for a record socket below it (pytest's tmp_path is not)."""
    folder = Path(tempfile.mkdtemp(prefix="mst-", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def sandbox(tmp_path: Path, **options: object) -> DockerSandbox:
    return DockerSandbox("mai-safety/sandbox:1", HOST, lock_path=tmp_path / "admission.lock", **options)


def test_inside_a_container_a_run_without_a_shared_work_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    with pytest.raises(SandboxUnavailable, match="MAI_SAFETY_WORK_DIR is not set"):
        sandbox(tmp_path, in_container=True).choose_runtime("runc", NetworkRequest())


def test_inside_a_container_with_a_shared_work_folder_runs_are_made_there_deps_included(tmp_path: Path, short: Path) -> None:
    """Issue 23, finding 9 (a): --network deps was refused in the compose deployment."""
    shared = sandbox(tmp_path, in_container=True, work_dir=short / "work")
    assert shared.choose_runtime("runc", NetworkRequest())["name"] == "runc"
    assert shared._work_root.parent == short / "work"
    assert shared.choose_runtime("auto", NetworkRequest(mode=NetworkMode.DEPS))["name"] == "runc"


def test_outside_a_container_nothing_changes(tmp_path: Path, short: Path) -> None:
    here = sandbox(tmp_path, work_dir=short)
    assert here.choose_runtime("runc", NetworkRequest(mode=NetworkMode.DEPS))["name"] == "runc"


def test_the_settings_read_the_work_folder_and_refuse_an_unclear_flag(tmp_path: Path) -> None:
    settings = Settings.from_environment({"MAI_SAFETY_WORK_DIR": str(tmp_path), "MAI_SAFETY_IN_CONTAINER": "1"})
    assert (settings.work_dir, settings.in_container) == (tmp_path, True)
    assert Settings.from_environment({}).in_container is False
    with pytest.raises(ConfigurationError, match="MAI_SAFETY_IN_CONTAINER"):
        Settings.from_environment({"MAI_SAFETY_IN_CONTAINER": "maybe"})


def test_a_work_folder_too_long_for_the_record_socket_is_refused_at_once(tmp_path: Path) -> None:
    with pytest.raises(SandboxUnavailable, match="too long for a run's record socket"):
        sandbox(tmp_path, work_dir=tmp_path / ("w" * 60))
