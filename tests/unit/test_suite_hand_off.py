"""The suite hands code to an analyzer that works in another process before the analyzers that
share the interpreter start (infrastructure/analysis/suite.py): analyzers that record when they
are called; no engine, no I/O."""

from __future__ import annotations

import threading
from collections.abc import Callable

from mai_safety.domain.assessment import Finding, Submission
from mai_safety.domain.levels import Provenance, RiskLevel
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
