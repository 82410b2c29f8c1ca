"""The suite's own leftover check (conftest.containers_of_this_run) in two workers: a container whose
supervisor has ended is this worker's to judge unless another worker of the run started it.

Seen in a CI-style run: one worker's check after a service's SIGTERM found a container whose
supervisor had ended, and failed; a test in the other worker leaves such orphans on purpose (a
killed supervisor's pool, for the next start to reap)."""

from __future__ import annotations

import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest

from . import conftest
from .cli_helpers import StartedProcesses


def _ended_pid() -> int:
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


def test_a_gone_supervisor_another_worker_started_is_left_to_that_worker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = f"check-{uuid.uuid4().hex[:8]}"
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setenv("PYTEST_XDIST_TESTRUNUID", run)
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw8")
    theirs = StartedProcesses()
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw7")
    mine = StartedProcesses()
    monkeypatch.setattr(conftest, "STARTED_PIDS", mine)

    started_there, started_here, nobodys = _ended_pid(), _ended_pid(), _ended_pid()
    theirs.add(started_there)
    mine.add(started_here)

    assert not conftest._of_this_run(f"host/{started_there}/1.0")  # another worker's orphan
    assert conftest._of_this_run(f"host/{started_here}/1.0")  # ours, gone
    assert conftest._of_this_run(f"host/{nobodys}/1.0")  # gone, started by no worker we know of: ours to judge
    assert conftest._of_this_run("not a supervisor label")
    assert theirs.started_by_another_worker(started_here) and not theirs.started_by_another_worker(started_there)


def test_outside_xdist_every_gone_supervisor_is_judged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.delenv("PYTEST_XDIST_TESTRUNUID", raising=False)
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    alone = StartedProcesses()
    monkeypatch.setattr(conftest, "STARTED_PIDS", alone)
    assert conftest._of_this_run(f"host/{_ended_pid()}/1.0")
    assert list(tmp_path.iterdir()) == []  # nothing written where there are no workers
