"""One reader of the policy folder (docs/decisions/0038): loading a version reads each of its files
once, however many loaders want it (analysis.yaml was read twice per version)."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from mai_safety.infrastructure import bootstrap
from mai_safety.infrastructure.policies import reader
from mai_safety.infrastructure.policies.folder import check_folder
from mai_safety.infrastructure.settings import Settings

from .fakes import FakeAssessor

SHIPPED = Path(__file__).resolve().parents[2] / "policies"


@pytest.fixture()
def reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Counter[str]]:
    """A copy of the shipped policies, and how many times each of its files is read (whole, by
    the folder's bounded reader, or one by one, as a loader reading a path would)."""
    folder = tmp_path / "policies"
    shutil.copytree(SHIPPED, folder)
    counted: Counter[str] = Counter()
    read_text, read_regular_file = Path.read_text, reader.read_regular_file

    def counting_read_text(path: Path, *args: Any, **kwargs: Any) -> str:
        if path.is_relative_to(folder):
            counted[path.relative_to(folder).as_posix()] += 1
        return read_text(path, *args, **kwargs)

    def counting_read_regular_file(name: str, *args: Any, **kwargs: Any) -> bytes:
        if Path(name).is_relative_to(folder):
            counted[Path(name).relative_to(folder).as_posix()] += 1
        return read_regular_file(name, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", counting_read_text)
    monkeypatch.setattr(reader, "read_regular_file", counting_read_regular_file)
    return folder, counted


def _settings(folder: Path, tmp_path: Path) -> Settings:
    return Settings(database_url=None, policies_dir=folder, image="mai-safety-sandbox", data_dir=tmp_path / "data", max_code_bytes=1024, actor="test")


def test_loading_a_recorded_version_reads_each_of_its_files_once(reads: tuple[Path, Counter[str]], tmp_path: Path) -> None:
    folder, counted = reads
    policy, assessor = bootstrap.load_version(folder, 3, _settings(folder, tmp_path), FakeAssessor())
    assert policy.version == 3
    assert counted["analysis.yaml"] == 1
    assert counted["limits.yaml"] == 1
    assert [name for name, times in counted.items() if times > 1] == []


def test_checking_a_folder_reads_each_file_once(reads: tuple[Path, Counter[str]]) -> None:
    folder, counted = reads
    check_folder(folder)
    assert counted["limits.yaml"] == 1  # read whole for its sizes, parsed for the model and the hardening keys
    assert [name for name, times in counted.items() if times > 1] == []


def test_a_policy_file_read_outside_a_folder_is_read_as_asked(reads: tuple[Path, Counter[str]]) -> None:
    folder, counted = reads
    from mai_safety.infrastructure.policies.files import read_yaml

    read_yaml(folder / "gate.yaml")
    read_yaml(folder / "gate.yaml")
    assert counted["gate.yaml"] == 2  # no folder is being read: nothing is kept


def test_a_loaded_version_hands_its_sensitive_path_model_to_the_observed_record(tmp_path: Path) -> None:
    """What a run was seen opening is marked by the model of the version in force, not the one the
    process started with (bootstrap.PathsInForce)."""
    folder = tmp_path / "policies"
    shutil.copytree(SHIPPED, folder)
    judged = bootstrap.PathsInForce(None)
    assert not judged("/workspace/notes/plan.txt", "read")
    model = folder / "sensitive_paths.yaml"
    model.write_text(model.read_text().replace("entries:\n", "entries:\n  - name: plans\n    paths: [~/notes/**]\n    read: HIGH\n", 1))
    bootstrap.load_version(folder, 1, _settings(folder, tmp_path), FakeAssessor(), observed_paths=judged)
    assert judged("/workspace/notes/plan.txt", "read")  # ~ is the sandbox's home, /workspace
    assert not judged("/workspace/data.csv", "read")
