"""The assessment's hard bound as shipped (issue #30): one submission is assessed within 5 s, its
analyzers side by side, and an analyzer still running then fails the code closed (at least MEDIUM,
a finding naming it and the bound), so an assessment never holds up the assistant's work."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from mai_safety.domain.assessment import Submission
from mai_safety.domain.levels import Provenance, RiskLevel
from mai_safety.infrastructure.analysis import AnalyzerSuite
from mai_safety.infrastructure.analysis.ast import AstAnalyzer
from mai_safety.infrastructure.analysis.bounds import AnalysisOverran
from mai_safety.infrastructure.analysis.policy import load_analysis_policy

POLICIES = Path(__file__).resolve().parents[2] / "policies"
SHIPPED_BOUND_S = 5


class _Stuck:
    """An analyzer that does not finish by itself (a pathological input, a hung engine)."""

    name = "stuck"

    def __init__(self) -> None:
        self.release = threading.Event()

    def analyze(self, submission: Submission) -> list[object]:
        self.release.wait(60)
        return []


def test_the_shipped_policy_bounds_a_submissions_assessment_at_five_seconds() -> None:
    policy = load_analysis_policy(POLICIES)
    assert policy.deadline_s == SHIPPED_BOUND_S
    assert policy.semgrep.timeout_s < policy.deadline_s  # the engine is killed before the bound, not left behind
    assert policy.semgrep.per_rule_timeout_s <= policy.semgrep.timeout_s


def test_an_analyzer_still_running_at_the_bound_fails_the_code_closed() -> None:
    policy = load_analysis_policy(POLICIES)
    stuck = _Stuck()
    suite = AnalyzerSuite([stuck], policy.failure_level, deadline_s=policy.deadline_s)
    try:
        assessment = suite.assess(Submission.from_bytes(b"print('hello')\n", Provenance.MAI, 1 << 20))
    finally:
        stuck.release.set()
    assert assessment.level >= RiskLevel.MEDIUM
    (finding,) = assessment.findings
    assert (finding.analyzer, finding.rule_id) == ("stuck", "analyzer-timeout")
    assert f"within {SHIPPED_BOUND_S} s" in finding.message


def test_the_ast_analysis_stops_at_its_deadline_on_the_callers_thread_and_fails_the_code_closed() -> None:
    """The AST analysis runs on the caller's thread (suite.SelfBoundingAnalyzer): nothing could cut it
    short there, so it stops itself. Given a deadline already past, a program of some size is not
    analysed to the end: the suite records the analyzer's timeout, never LOW; with time left, the
    same program is analysed in full on the same thread."""
    policy = load_analysis_policy(POLICIES)
    analyzer = AstAnalyzer(policy.ast, policy.threats, policy.paths)
    program = "".join(f"value_{n} = len(str({n})) + {n}\nprint(value_{n})\n" for n in range(400)).encode()
    submission = Submission.from_bytes(program, Provenance.MAI, 1 << 20)
    with pytest.raises(AnalysisOverran):
        analyzer.analyze_within(submission, time.monotonic() - 1)

    rated_late = AnalyzerSuite([analyzer], policy.failure_level, deadline_s=0).assess(submission)
    assert rated_late.level >= RiskLevel.MEDIUM
    (finding,) = rated_late.findings
    assert (finding.analyzer, finding.rule_id) == ("ast", "analyzer-timeout")

    rated = AnalyzerSuite([analyzer], policy.failure_level, deadline_s=policy.deadline_s).assess(submission)
    assert rated.level is RiskLevel.LOW and rated.complexity["calls"] == 1200
