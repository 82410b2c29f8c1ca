"""Running the real `mai-safety` command in a subprocess, as a user would."""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from mai_safety.infrastructure.settings import PROJECT_ROOT

CLI = [sys.executable, "-m", "mai_safety.infrastructure.cli"]

class StartedProcesses:
    """The processes this test process started that may supervise containers (CLIs, services).

    The containers they supervised are this test process's own: conftest's leftover check judges
    those, and no one else's, on a shared Docker engine. A container whose supervisor has ended is
    also taken as ours, unless another pytest-xdist worker of this run started that supervisor: a
    test there may leave an orphan on purpose (a killed supervisor's pool, waiting for the next start
    to reap it), and this worker must neither judge nor remove it. So under xdist each worker writes
    the pids it starts to a file of its own in a folder the run's workers share, and reads the others'.
    """

    def __init__(self) -> None:
        self._pids: set[int] = set()
        run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")
        worker = os.environ.get("PYTEST_XDIST_WORKER", "")
        self._folder = Path(tempfile.gettempdir()) / f"mai-tests-{run}" if run and worker else None
        self._mine = self._folder / f"{worker}.pids" if self._folder is not None else None
        if self._folder is not None and self._mine is not None:
            self._folder.mkdir(mode=0o700, exist_ok=True)
            atexit.register(self._forget)

    def add(self, pid: int) -> None:
        self._pids.add(pid)
        if self._mine is not None:
            with self._mine.open("a", encoding="ascii") as record:
                record.write(f"{pid}\n")

    def __contains__(self, pid: object) -> bool:
        return pid in self._pids

    def started_by_another_worker(self, pid: int) -> bool:
        if self._folder is None:
            return False
        for record in self._folder.glob("*.pids"):
            if record == self._mine:
                continue
            try:
                if str(pid) in record.read_text(encoding="ascii").split():
                    return True
            except FileNotFoundError:  # that worker has ended
                continue
        return False

    def _forget(self) -> None:
        if self._mine is not None:
            self._mine.unlink(missing_ok=True)
        if self._folder is not None:
            with contextlib.suppress(OSError):  # another worker's record is still there
                self._folder.rmdir()


STARTED_PIDS = StartedProcesses()


def run_cli(args: list[str], env: dict[str, str], stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    full_env.update(env)
    with subprocess.Popen(
        CLI + args, env=full_env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        STARTED_PIDS.add(process.pid)
        try:
            stdout, stderr = process.communicate(stdin.decode() if stdin else None, timeout=180)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


_SUITE_POLICIES: list[Path] = []


def suite_policies() -> Path:
    """The shipped policies as the suite's default: the same files, but no warm pool. As shipped, a
    long-lived process keeps two started containers for standard runs; a test that wants a pool
    says so (``pool:`` in its policies, or ``bootstrap(pool=...)``), so that every other test's
    containers are only those its runs make. Made once per session, removed at its end."""
    if not _SUITE_POLICIES:
        folder = Path(tempfile.mkdtemp(prefix="mai-safety-suite-policies-")) / "policies"
        shutil.copytree(PROJECT_ROOT / "policies", folder)
        limits = yaml.safe_load((folder / "limits.yaml").read_text())
        limits["pool"]["sizes"] = {name: 0 for name in limits["pool"]["sizes"]}
        (folder / "limits.yaml").write_text(yaml.safe_dump(limits))
        atexit.register(shutil.rmtree, folder.parent, True)
        _SUITE_POLICIES.append(folder)
    return _SUITE_POLICIES[0]


def policies_with(tmp_path: Path, **changes: dict) -> Path:
    """A copy of the suite's policies (suite_policies: the shipped ones, no warm pool) with
    top-level sections of some files updated, e.g. ``policies_with(tmp, assessment={"bandit.rules": {...}})``."""
    policies = tmp_path / "policies"
    shutil.copytree(suite_policies(), policies)
    for name, updates in changes.items():
        path = policies / f"{name}.yaml"
        data = yaml.safe_load(path.read_text())
        for dotted, value in updates.items():
            target = data
            *parents, last = dotted.split(".")
            for key in parents:
                target = target[key]
            if isinstance(target.get(last), dict) and isinstance(value, dict):
                target[last].update(value)
            else:
                target[last] = value
        path.write_text(yaml.safe_dump(data))
    return policies


def gate_test_policies(tmp_path: Path, **gate: object) -> Path:
    """Bandit's exec finding rated BLOCKED and its eval finding HIGH, so the gate can be driven with real Bandit."""
    return policies_with(tmp_path, assessment={"bandit.rules": {"B102": "BLOCKED", "B307": "HIGH"}}, gate=gate)
