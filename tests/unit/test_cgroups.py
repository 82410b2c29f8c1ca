"""The cgroup reader (infrastructure/sandbox/cgroups.py) on this test's own process: the folders it
finds are the ones /proc names, its reads are the files' text, and a file it cannot read is None."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mai_safety.infrastructure.sandbox import cgroups
from mai_safety.infrastructure.sandbox.cgroups import CgroupReader


def _named_folders() -> dict[str, Path]:
    """Each v1 controller's folder of this process, found the slow, plain way."""
    found = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in filter(None, controllers.split(",")):
            folder = Path("/sys/fs/cgroup") / controller / path.lstrip("/")
            if folder.is_dir():
                found[controller] = folder
    return found


@pytest.fixture()
def reader() -> CgroupReader:
    if not Path("/proc/self/cgroup").exists():
        pytest.skip("no /proc here")
    return CgroupReader(os.getpid())


def test_it_finds_the_folders_proc_names(reader: CgroupReader) -> None:
    named = _named_folders()
    if named:
        assert reader.v1 == named and reader.v2 is None
    else:
        assert reader.v2 is not None and (reader.v2 / "cgroup.procs").exists()
    assert reader.exists()


def test_its_readings_are_the_files_text(reader: CgroupReader) -> None:
    limit, used = reader.memory()
    assert used > 0  # this process's memory is in it
    usage = reader.read()
    assert usage.cpu_seconds > 0 and usage.memory_bytes > 0 and usage.pids >= 0  # pids: 0 at a root cgroup, which has no count
    folder = reader.v1.get("memory") or reader.v2
    assert folder is not None
    name = "memory.limit_in_bytes" if reader.v1 else "memory.max"
    text = (folder / name).read_text().strip()
    assert limit == (int(text) if text.isdigit() else None)


def test_a_file_it_cannot_read_is_none_and_a_long_one_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert cgroups._read(str(tmp_path / "gone")) is None
    long = tmp_path / "long"
    long.write_bytes(b"1 2\n" * 100_000)
    monkeypatch.setattr(cgroups, "_MAX_FILE_BYTES", 65536)
    text = cgroups._read(str(long))
    assert text is not None and 65536 - 1 <= len(text) < 65536 * 2  # stripped of its last new line


def test_a_gone_process_is_an_error() -> None:
    with pytest.raises(OSError):
        CgroupReader(2**22 + 7)  # beyond pid_max: no such process
