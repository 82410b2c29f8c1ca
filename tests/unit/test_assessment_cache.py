"""The suite's verdicts kept by the code's hash (infrastructure/analysis/cache.py), with analyzers
that count their calls: no engine, no I/O."""

from __future__ import annotations

from mai_safety.domain.assessment import Finding, Submission
from mai_safety.domain.levels import Provenance, RiskLevel
from mai_safety.infrastructure.analysis.suite import AnalyzerSuite


class Counting:
    name = "counting"

    def __init__(self, fail: bool = False) -> None:
        self.calls = 0
        self.fail = fail

    def analyze(self, submission: Submission) -> list[Finding]:
        self.calls += 1
        if self.fail:
            raise RuntimeError("broken rules")
        level = RiskLevel.HIGH if "os.system" in submission.code else RiskLevel.LOW
        return [Finding(analyzer=self.name, rule_id="r", level=level, message="m")] if level is RiskLevel.HIGH else []


def _submission(code: str, provenance: Provenance = Provenance.MAI) -> Submission:
    return Submission.from_bytes(code.encode(), provenance, 100_000)


def test_the_same_code_and_provenance_is_assessed_once_and_given_the_same_verdict() -> None:
    analyzer = Counting()
    suite = AnalyzerSuite([analyzer], RiskLevel.MEDIUM, cache_entries=8)
    first = suite.assess(_submission("import os\nos.system('ls')\n"))
    again = suite.assess(_submission("import os\nos.system('ls')\n"))
    assert analyzer.calls == 1 and again == first and again.level is RiskLevel.HIGH
    suite.assess(_submission("import os\nos.system('ls')\n", Provenance.USER))
    suite.assess(_submission("print(1)\n"))
    assert analyzer.calls == 3, "another provenance or other code is assessed afresh"


def test_a_verdict_an_analyzers_failure_shaped_is_never_kept() -> None:
    analyzer = Counting(fail=True)
    suite = AnalyzerSuite([analyzer], RiskLevel.MEDIUM, cache_entries=8)
    for _ in range(2):
        assessment = suite.assess(_submission("print(1)\n"))
        assert assessment.level is RiskLevel.MEDIUM and assessment.findings[0].rule_id == "analyzer-failed"
    assert analyzer.calls == 2


def test_the_cache_is_bounded_and_off_by_default() -> None:
    analyzer = Counting()
    suite = AnalyzerSuite([analyzer], RiskLevel.MEDIUM, cache_entries=2)
    for code in ("a = 1\n", "b = 2\n", "c = 3\n", "a = 1\n"):
        suite.assess(_submission(code))
    assert analyzer.calls == 4, "the oldest verdict was dropped to keep two"
    uncached, plain = Counting(), None
    plain = AnalyzerSuite([uncached], RiskLevel.MEDIUM)
    plain.assess(_submission("a = 1\n"))
    plain.assess(_submission("a = 1\n"))
    assert uncached.calls == 2


class RuleTimingOut:
    """Semgrep as it answers when a rule ran out of time on a busy host: a ``semgrep-timeout``
    finding (semgrep.py), then, with the host quiet again, a clean read."""

    name = "semgrep"

    def __init__(self) -> None:
        self.calls = 0

    def analyze(self, submission: Submission) -> list[Finding]:
        self.calls += 1
        if self.calls == 1:
            return [Finding(analyzer=self.name, rule_id="semgrep-timeout", level=RiskLevel.MEDIUM, message="Timeout near line 1")]
        return []


def test_a_verdict_a_semgrep_rule_timeout_shaped_is_not_kept_by_the_code_hash() -> None:
    """A per-rule timeout says how busy the host was, not what the code is: the next submission of
    the same code is read afresh, not handed the load-shaped MEDIUM."""
    analyzer = RuleTimingOut()
    suite = AnalyzerSuite([analyzer], RiskLevel.MEDIUM, cache_entries=8)
    first = suite.assess(_submission("print(1)\n"))
    again = suite.assess(_submission("print(1)\n"))
    assert first.level is RiskLevel.MEDIUM and first.findings[0].rule_id == "semgrep-timeout"
    assert analyzer.calls == 2 and again.level is RiskLevel.LOW and not again.findings
