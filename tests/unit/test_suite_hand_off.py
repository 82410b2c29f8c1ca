"""The suite hands code to an analyzer that works in another process before the analyzers that
share the interpreter start, runs an analyzer that bounds its own time on the caller's thread, and
only then waits for the handed-off answers (infrastructure/analysis/suite.py): analyzers that
record when they are called; no engine, no I/O."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from mai_safety.domain.assessment import Finding, Submission
from mai_safety.domain.levels import Provenance, RiskLevel
from mai_safety.infrastructure.analysis.bounds import AnalysisOverran
from mai_safety.infrastructure.analysis.suite import AnalyzerSuite


class InProcess:
    """Takes the interpreter's time: notes what had already happened when it started."""

    name = "in-process"

    def __init__(self, log: list[str]) -> None:
        self.log = log

    def analyze(self, submission: Submission) -> list[Finding]:
        self.log.append(f"{self.name} starts")
        return []


class Elsewhere:
    """Hands its work to another process, which finds one thing; or fails to hand it over."""

    name = "elsewhere"

    def __init__(self, log: list[str], broken: bool = False) -> None:
        self.log = log
        self.broken = broken
        self.on_thread = ""

    def hand_off(self, submission: Submission) -> Callable[[], list[Finding]]:
        self.log.append("handed off")
        if self.broken:
            raise OSError("no room left for the code")

        def findings() -> list[Finding]:
            self.on_thread = threading.current_thread().name
            return [Finding(analyzer=self.name, rule_id="r", level=RiskLevel.HIGH, message="m")]

        return findings


def _submission() -> Submission:
    return Submission.from_bytes(b"print(1)\n", Provenance.MAI, 100_000)


def test_the_code_is_handed_off_before_any_analyzer_in_the_interpreter_starts() -> None:
    log: list[str] = []
    elsewhere = Elsewhere(log)
    suite = AnalyzerSuite([InProcess(log), elsewhere], RiskLevel.MEDIUM)  # listed after: still first
    assessment = suite.assess(_submission())
    assert log[0] == "handed off" and log[1:] == ["in-process starts"]
    assert assessment.level is RiskLevel.HIGH and [f.analyzer for f in assessment.findings] == ["elsewhere"]
    assert elsewhere.on_thread == "analyzer-elsewhere", "the answer is waited for on the analyzer's own thread, under the deadline"


def test_a_hand_off_that_fails_is_the_analyzers_failure_and_never_low() -> None:
    log: list[str] = []
    suite = AnalyzerSuite([Elsewhere(log, broken=True), InProcess(log)], RiskLevel.MEDIUM)
    assessment = suite.assess(_submission())
    assert assessment.level is RiskLevel.MEDIUM
    failure = assessment.findings[0]
    assert (failure.analyzer, failure.rule_id) == ("elsewhere", "analyzer-failed") and "no room left" in failure.message
    assert "in-process starts" in log, "the other analyzers still ran"


class Bounded:
    """Bounds its own time (suite.SelfBoundingAnalyzer): run on the caller's thread; notes where and
    when, and what it was told; or overruns, or breaks."""

    name = "bounded"

    def __init__(self, log: list[str], raises: BaseException | None = None) -> None:
        self.log = log
        self.raises = raises
        self.deadline: float | None = None

    def analyze_within(self, submission: Submission, deadline: float) -> tuple[list[Finding], dict[str, int]]:
        self.log.append(f"{self.name} starts on {threading.current_thread().name}")
        self.deadline = deadline
        if self.raises is not None:
            raise self.raises
        return [], {"lines": 1}


class Waited(Elsewhere):
    """Notes when its answer is waited for."""

    def hand_off(self, submission: Submission) -> Callable[[], list[Finding]]:
        findings = super().hand_off(submission)

        def noted() -> list[Finding]:
            self.log.append("answer waited for")
            return findings()

        return noted


def test_an_analyzer_that_bounds_itself_runs_on_the_callers_thread_between_the_hand_off_and_the_wait() -> None:
    log: list[str] = []
    bounded, elsewhere = Bounded(log), Waited(log)
    suite = AnalyzerSuite([bounded, elsewhere], RiskLevel.MEDIUM, deadline_s=7)
    before = time.monotonic()
    assessment = suite.assess(_submission())
    caller = threading.current_thread().name
    assert log == ["handed off", f"bounded starts on {caller}", "answer waited for"]
    assert elsewhere.on_thread == "analyzer-elsewhere", "the wait keeps its own thread, under the deadline"
    assert bounded.deadline is not None and before + 7 <= bounded.deadline <= time.monotonic() + 7
    assert assessment.level is RiskLevel.HIGH and assessment.complexity == {"lines": 1}
    assert assessment.analyzers == ("bounded", "elsewhere")


def test_an_analyzer_that_bounds_itself_and_overruns_or_breaks_fails_the_code_closed() -> None:
    for raised, rule in ((AnalysisOverran("past the deadline"), "analyzer-timeout"), (ValueError("broken"), "analyzer-failed")):
        log: list[str] = []
        suite = AnalyzerSuite([Bounded(log, raises=raised), InProcess(log)], RiskLevel.MEDIUM)
        assessment = suite.assess(_submission())
        assert assessment.level is RiskLevel.MEDIUM
        (failure,) = assessment.findings
        assert (failure.analyzer, failure.rule_id) == ("bounded", rule)
        assert "in-process starts" in log, "the other analyzers still ran"
