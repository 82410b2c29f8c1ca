"""The whole assessor (real Semgrep, Bandit and AST analyzers) over the labelled corpus in tests/corpus/.

Risky programs must get exactly their label; every obfuscated variant of a BLOCKED program must be
BLOCKED; benign programs must never be BLOCKED and at most 5% of them HIGH. Inputs built to break
analyzers must each get a verdict, at least MEDIUM, without a traceback.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from mai_safety.domain.assessment import Assessment, Submission
from mai_safety.domain.levels import Provenance, RiskLevel
from mai_safety.infrastructure.analysis import AnalyzerSuite, build_analyzers
from mai_safety.infrastructure.policies import load_policies
from tests.corpus.labels import Example, load

POLICIES = Path(__file__).resolve().parents[2] / "policies"
RISKY = load("risky")
OBFUSCATED = load("obfuscated")
BENIGN = load("benign")


def submit(code: str) -> Submission:
    return Submission.from_bytes(code.encode("utf-8"), Provenance.MAI, 1 << 24)


@pytest.fixture(scope="module")
def suite() -> Iterator[AnalyzerSuite]:
    assessor = build_analyzers(POLICIES, load_policies(POLICIES).bandit)
    yield assessor
    for analyzer in assessor.analyzers:
        getattr(analyzer, "close", lambda: None)()


@pytest.fixture(scope="module")
def verdicts(suite: AnalyzerSuite) -> dict[str, Assessment]:
    """Every corpus program assessed once (in one batch: Semgrep reads them in a single run)."""
    examples = RISKY + OBFUSCATED + BENIGN
    assessments = suite.assess_many([submit(example.code) for example in examples])
    return {example.name: assessment for example, assessment in zip(examples, assessments)}


def explain(assessment: Assessment) -> str:
    return "; ".join(f"{f.level.value} {f.analyzer}:{f.rule_id} L{f.line}" for f in assessment.findings if f.level > RiskLevel.LOW)


def test_the_corpus_is_large_and_spread_over_the_categories():
    assert len(RISKY) >= 80 and len(BENIGN) >= 80
    blocked_categories = {e.category for e in RISKY if e.expect == "BLOCKED"}
    assert {"reverse_shell", "exfiltration", "destructive_wipe", "fork_bomb", "miner", "disable_security", "obfuscated_exec",
            "known_threat"} <= blocked_categories
    assert {e.expect for e in RISKY} == {"BLOCKED", "HIGH", "MEDIUM"}


def test_every_blocked_example_has_obfuscated_variants_of_each_technique():
    techniques = {(e.origin, e.technique) for e in OBFUSCATED}
    for example in (e for e in RISKY if e.expect == "BLOCKED"):
        assert {t for origin, t in techniques if origin == example.name} == {"alias+concat", "encode+getattr", "exec-wrapped"}, example.name


@pytest.mark.parametrize("example", RISKY, ids=lambda e: e.name)
def test_every_risky_example_gets_its_label(verdicts: dict[str, Assessment], example: Example):
    assessment = verdicts[example.name]
    assert assessment.level.value == example.expect, explain(assessment)


@pytest.mark.parametrize("example", OBFUSCATED, ids=lambda e: e.name)
def test_every_obfuscated_variant_is_blocked(verdicts: dict[str, Assessment], example: Example):
    assessment = verdicts[example.name]
    assert assessment.level is RiskLevel.BLOCKED, explain(assessment)


@pytest.mark.parametrize("example", BENIGN, ids=lambda e: e.name)
def test_no_benign_program_is_blocked(verdicts: dict[str, Assessment], example: Example):
    assessment = verdicts[example.name]
    assert assessment.level < RiskLevel.BLOCKED, explain(assessment)


def test_at_most_five_percent_of_benign_programs_need_a_confirmation(verdicts: dict[str, Assessment]):
    high = [e.name for e in BENIGN if verdicts[e.name].level is RiskLevel.HIGH]
    assert len(high) <= 0.05 * len(BENIGN), high


@pytest.mark.parametrize("example", [e for e in RISKY if e.expect == "BLOCKED"][::6], ids=lambda e: e.name)
def test_assessing_one_program_agrees_with_assessing_the_batch(suite: AnalyzerSuite, verdicts, example: Example):
    single = suite.assess(submit(example.code))
    assert single.level is verdicts[example.name].level
    assert {(f.analyzer, f.rule_id, f.line) for f in single.findings} == {
        (f.analyzer, f.rule_id, f.line) for f in verdicts[example.name].findings
    }


def test_an_assessment_carries_the_complexity_measure(verdicts: dict[str, Assessment]):
    complexity = verdicts["benign/algorithms/dijkstra.py"].complexity
    assert complexity["lines"] == 19 and complexity["functions"] == 1 and complexity["loops"] == 2
    assert {"imports", "calls", "max_nesting_depth"} <= set(complexity)


# --- inputs built to break analyzers ----------------------------------------------------------------

_BENIGN_BODY = (Path(__file__).resolve().parents[1] / "corpus" / "benign" / "algorithms" / "dijkstra.py").read_text()
BAD_INPUTS = {
    "syntax_error": "import os\nprint('ok')\ndef f(:\n    return 1\n",
    "syntax_error_hiding_a_wipe": "import os\nos.system('rm -rf /'\ndef f(:\n    pass\n",
    "one_mib_file": (_BENIGN_BODY * (1 + (1 << 20) // len(_BENIGN_BODY)))[: 1 << 20],
    "one_mib_single_line": "x = " + repr("a" * ((1 << 20) - 10)) + "\n",
    "nested_parentheses": "x=" + "(" * 1000 + "1" + ")" * 1000,
    "unary_minus_chain": "-" * 100_000 + "1",
}


@pytest.mark.parametrize("code", BAD_INPUTS.values(), ids=BAD_INPUTS.keys())
def test_inputs_built_to_break_analyzers_get_a_verdict_of_at_least_medium(suite: AnalyzerSuite, code: str):
    assessment = suite.assess(submit(code))
    assert assessment.level >= RiskLevel.MEDIUM, explain(assessment)
    assert assessment.complexity["lines"] >= 1
    failed = [f for f in assessment.findings if f.rule_id in ("analyzer-failed", "analyzer-timeout")]
    assert all(f.level >= RiskLevel.MEDIUM and f.analyzer.lower() in f.message.lower() for f in failed)


def test_a_syntax_error_hiding_a_wipe_is_still_blocked(suite: AnalyzerSuite):
    assert suite.assess(submit(BAD_INPUTS["syntax_error_hiding_a_wipe"])).level is RiskLevel.BLOCKED
