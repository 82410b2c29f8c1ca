"""Behavioural rules for external code (issue #28 item 4, decision 0045): code that did not come from
the assistant or the user (provenance ``external``) is rated at least HIGH when it runs a process,
uses the network, writes outside its working directory, runs code it builds or imports by a
computed name, forks, or unpickles; the same program from the assistant stays MEDIUM. The levels
are policy (policies/analysis.yaml, a rule's ``provenances`` and ``otherwise``), so these tests read
the shipped policy through the whole assessor. The programs are written for these tests."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from mai_safety.domain.assessment import Assessment, Submission
from mai_safety.domain.levels import Provenance, RiskLevel
from mai_safety.infrastructure.analysis import AnalyzerSuite, build_analyzers
from mai_safety.infrastructure.policies import load_policies

POLICIES = Path(__file__).resolve().parents[2] / "policies"


@pytest.fixture(scope="module")
def suite() -> Iterator[AnalyzerSuite]:
    assessor = build_analyzers(POLICIES, load_policies(POLICIES).bandit)
    yield assessor
    assessor.close()


def assess(suite: AnalyzerSuite, code: str, provenance: Provenance) -> Assessment:
    return suite.assess(Submission.from_bytes(textwrap.dedent(code).encode("utf-8"), provenance, 1 << 24))


# Each: a program whose one risky behaviour is common in the assistant's own code (MEDIUM).
BEHAVIOURS = {
    "runs_a_process": """
        import subprocess
        print(subprocess.run(["git", "status", "--short"], capture_output=True, text=True).stdout)
        """,
    "uses_the_network": """
        import urllib.request
        with urllib.request.urlopen("https://example.org/status.json") as reply:
            print(reply.status)
        """,
    "writes_outside_its_folder": """
        with open("/tmp/report-cache.txt", "w") as out:
            out.write("done")
        """,
    "runs_code_it_builds": """
        import sys
        expression = sys.argv[1]
        print(eval(expression, {"__builtins__": {}}, {}))
        """,
    "unpickles": """
        import pickle
        with open("state.pkl", "rb") as handle:
            state = pickle.load(handle)
        print(len(state))
        """,
}


@pytest.mark.parametrize("name", sorted(BEHAVIOURS))
def test_external_code_meets_its_own_rules(suite: AnalyzerSuite, name: str) -> None:
    code = BEHAVIOURS[name]
    assert assess(suite, code, Provenance.MAI).level == RiskLevel.MEDIUM
    assert assess(suite, code, Provenance.USER).level == RiskLevel.MEDIUM
    external = assess(suite, code, Provenance.EXTERNAL)
    assert external.level == RiskLevel.HIGH, [(f.rule_id, f.level.value) for f in external.findings]


def test_external_code_that_only_computes_stays_low(suite: AnalyzerSuite) -> None:
    code = """
        import json
        rows = json.loads('[{"n": 1}, {"n": 2}]')
        print(sum(row["n"] for row in rows))
        """
    assert assess(suite, code, Provenance.EXTERNAL).level == RiskLevel.LOW
