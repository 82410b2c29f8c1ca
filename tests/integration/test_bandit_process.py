"""Bandit in a process of its own (infrastructure/analysis/bandit_process.py): the same findings as
in-process, never a program queued behind another, a failure of the process never read as "nothing
found", and no process left behind by an owner that is killed. Real Bandit, real processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psutil
import pytest

from mai_safety.domain.assessment import Submission
from mai_safety.domain.levels import Provenance, RiskLevel
from mai_safety.infrastructure.analysis import AnalyzerSuite, build_analyzers
from mai_safety.infrastructure.analysis.bandit import BanditAnalyzer
from mai_safety.infrastructure.analysis.bandit_process import BanditInItsOwnProcess, BanditProcessFailed
from mai_safety.infrastructure.policies import load_policies
from tests.corpus.labels import load

from .processes import ends

POLICIES = Path(__file__).resolve().parents[2] / "policies"


def submit(code: str) -> Submission:
    return Submission.from_bytes(code.encode(), Provenance.MAI, 1 << 24)


def _until(condition: Callable[[], bool], timeout_s: float = 30.0) -> None:
    ended = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < ended, "gave up waiting"
        time.sleep(0.02)


def _pid(analyzer: BanditInItsOwnProcess) -> int:
    """The analyzer's process, once it is ready: a child of ours, running this module."""
    _until(lambda: analyzer.own_process)
    pid = analyzer.pid
    assert pid is not None
    assert psutil.Process(pid).ppid() == os.getpid()
    assert "mai_safety.infrastructure.analysis.bandit_process" in psutil.Process(pid).cmdline()
    return pid


@pytest.fixture
def in_process() -> BanditAnalyzer:
    return BanditAnalyzer(load_policies(POLICIES).bandit)


@pytest.fixture
def own(in_process: BanditAnalyzer) -> Iterator[BanditInItsOwnProcess]:
    analyzer = BanditInItsOwnProcess(in_process, deadline_s=20)
    try:
        _until(lambda: analyzer.own_process)
        yield analyzer
    finally:
        analyzer.close()


def test_its_findings_are_the_in_process_findings_program_for_program(own, in_process) -> None:
    programs = [entry.code for entry in load("risky", "obfuscated", "benign")][::7]
    programs += [
        "import pickle\npickle.loads(b'')  # nosec",  # the code cannot silence its assessor here either
        "def broken(:\n    pass\n",  # Bandit cannot parse it: a finding at the failure level
        "x = 1\n" * 3000,
    ]
    for code in programs:
        submission = submit(code)
        wait = own.hand_off(submission)
        assert wait() == in_process.analyze(submission), code[:200]
    assert own.own_process  # every program above was read by the process, none in-process
    broken = own.analyze(submit("def broken(:\n    pass\n"))
    assert [(f.rule_id, f.level) for f in broken] == [("analyzer-failed", RiskLevel.MEDIUM)]


def test_a_program_is_never_queued_behind_another_it_is_read_in_process(own, in_process) -> None:
    pid = _pid(own)
    os.kill(pid, signal.SIGSTOP)  # the process holds the first program and cannot answer yet
    try:
        first = submit("import subprocess\nsubprocess.run('ls', shell=True)\n")
        wait_first = own.hand_off(first)
        second = submit("import pickle\npickle.loads(b'')\n")
        started = time.monotonic()
        found = own.hand_off(second)()
        assert time.monotonic() - started < 5, "the second program waited for the first"
        assert found == in_process.analyze(second)
    finally:
        os.kill(pid, signal.SIGCONT)
    assert wait_first() == in_process.analyze(first)
    assert own.own_process and _pid(own) == pid  # the same process, idle again


def test_a_process_killed_while_reading_fails_the_program_closed_and_is_replaced(own) -> None:
    pid = _pid(own)
    os.kill(pid, signal.SIGSTOP)  # so that it cannot have answered before it is killed
    suite = AnalyzerSuite([own], RiskLevel.MEDIUM, deadline_s=20)
    threading.Timer(0.3, os.kill, (pid, signal.SIGKILL)).start()
    assessment = suite.assess(submit("print('hello')\n"))
    assert assessment.level is RiskLevel.MEDIUM, "a dead analyzer's silence was read as LOW"
    [failure] = assessment.findings
    assert (failure.analyzer, failure.rule_id) == ("bandit", "analyzer-failed")
    assert "ended while reading the code" in failure.message
    assert ends(pid)
    replacement = _pid(own)
    assert replacement != pid
    assert [f.rule_id for f in own.analyze(submit("import pickle\npickle.loads(b'')\n"))] == ["B403:blacklist", "B301:blacklist"]


def test_a_process_that_overruns_its_deadline_is_killed_and_the_program_fails_closed(in_process) -> None:
    analyzer = BanditInItsOwnProcess(in_process, deadline_s=1.0)
    try:
        pid = _pid(analyzer)
        os.kill(pid, signal.SIGSTOP)  # a program Bandit cannot finish, as far as the owner can tell
        wait = analyzer.hand_off(submit("print('hello')\n"))
        with pytest.raises(BanditProcessFailed, match="did not answer in time"):
            wait()
        assert ends(pid), "the overrunning process was left running"
        assert _pid(analyzer) != pid
    finally:
        analyzer.close()


def test_close_ends_the_process(in_process) -> None:
    analyzer = BanditInItsOwnProcess(in_process, deadline_s=20)
    pid = _pid(analyzer)
    analyzer.close()
    assert ends(pid, timeout_s=5)
    assert not analyzer.own_process


def test_a_one_shot_suite_reads_in_process_and_starts_no_process() -> None:
    suite = build_analyzers(POLICIES, load_policies(POLICIES).bandit, warm_semgrep=False)
    try:
        [bandit] = [a for a in suite.analyzers if a.name == "bandit"]
        assert isinstance(bandit, BanditAnalyzer)  # no process of its own to start or leave behind
    finally:
        suite.close()


def test_a_bandit_package_in_the_working_folder_is_not_what_the_process_loads(in_process, tmp_path, monkeypatch) -> None:
    """Started with ``-P``: whatever sits in the service's working folder is not on its path."""
    planted = tmp_path / "bandit"
    planted.mkdir()
    (planted / "__init__.py").write_text("raise SystemExit('a planted bandit package was imported')\n")
    (tmp_path / "mai_safety").mkdir()
    (tmp_path / "mai_safety" / "__init__.py").write_text("raise SystemExit('a planted mai_safety was imported')\n")
    monkeypatch.chdir(tmp_path)
    analyzer = BanditInItsOwnProcess(in_process, deadline_s=20)
    try:
        _until(lambda: analyzer.own_process or bool(analyzer.disabled_reason))
        assert analyzer.own_process, analyzer.disabled_reason
        assert [f.rule_id for f in analyzer.analyze(submit("import pickle\npickle.loads(b'')\n"))] == ["B403:blacklist", "B301:blacklist"]
    finally:
        analyzer.close()


#: A process that builds a long-lived suite, as the service does, says its pid, then waits to be killed.
_HOLDER = """
import sys, time
from pathlib import Path
from mai_safety.infrastructure.analysis import build_analyzers
from mai_safety.infrastructure.policies import load_policies
suite = build_analyzers(Path(sys.argv[1]), load_policies(Path(sys.argv[1])).bandit, only=("bandit",))
while not suite.analyzers[0].own_process:
    time.sleep(0.02)
print("ready", flush=True)
time.sleep(600)
"""


def test_a_killed_owner_s_bandit_process_ends_with_it() -> None:
    with subprocess.Popen([sys.executable, "-c", _HOLDER, str(POLICIES)], stdout=subprocess.PIPE, text=True) as holder:
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
            [worker] = [p.pid for p in psutil.Process(holder.pid).children() if "bandit_process" in p.cmdline()[-1]]
            holder.kill()
            holder.wait(10)
            assert ends(worker), "Bandit's process outlived its killed owner"
        finally:
            if holder.poll() is None:
                holder.kill()
                holder.wait(10)


def test_big_code_for_a_process_that_stopped_reading_blocks_no_caller_and_fails_closed_at_the_deadline(in_process) -> None:
    """Code bigger than a pipe holds cannot be written at once: it is written by Bandit's thread,
    and a process that does not take it is killed at the deadline."""
    analyzer = BanditInItsOwnProcess(in_process, deadline_s=4)
    try:
        pid = _pid(analyzer)
        os.kill(pid, signal.SIGSTOP)
        big = submit("x = 1\n" * 12_000)  # 72 KB
        started = time.monotonic()
        wait = analyzer.hand_off(big)
        assert time.monotonic() - started < 0.5, "the caller's thread was blocked writing the code"
        with pytest.raises(BanditProcessFailed):
            wait()
        assert time.monotonic() - started < 8
        assert ends(pid), "the process that did not take the code was left"
        assert _pid(analyzer) != pid
        assert analyzer.analyze(big) == in_process.analyze(big)  # big code, taken by the new process
    finally:
        analyzer.close()


def test_the_process_that_reads_untrusted_code_is_not_given_the_ledger_s_credentials(in_process, monkeypatch) -> None:
    monkeypatch.setenv("MAI_SAFETY_DATABASE_URL", "postgresql://mai:s3cret@db:5432/ledger")
    monkeypatch.setenv("PGPASSWORD", "s3cret")
    analyzer = BanditInItsOwnProcess(in_process, deadline_s=20)
    try:
        pid = _pid(analyzer)
        environment = Path(f"/proc/{pid}/environ").read_bytes()
        assert b"s3cret" not in environment
        assert b"PATH=" in environment  # the rest of the environment is kept
    finally:
        analyzer.close()
