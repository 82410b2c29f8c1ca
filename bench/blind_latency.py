"""The assessment's latency per submission over the blind sets (tests/corpus/blind*/), against the
shipped hard bound (policies/analysis.yaml ``deadline_s``, 5 s): each program assessed once, one at
a time, by the warm suite built from the shipped policies (its verdict cache off), as a service
assesses what an assistant sends. Prints p50, p95, p99 and the slowest, and how many assessments
met the bound (an ``analyzer-timeout`` finding: failed closed).

    .venv/bin/python bench/blind_latency.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mai_safety.domain.assessment import Submission  # noqa: E402
from mai_safety.domain.errors import DomainError  # noqa: E402
from mai_safety.domain.levels import Provenance  # noqa: E402
from mai_safety.infrastructure.analysis import build_analyzers  # noqa: E402
from mai_safety.infrastructure.analysis.policy import load_analysis_policy  # noqa: E402
from mai_safety.infrastructure.policies import load_policies  # noqa: E402

POLICIES = ROOT / "policies"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    programs = sorted(path for folder in sorted((ROOT / "tests" / "corpus").glob("blind*")) for path in folder.rglob("*.py") if path.name != "measure.py")
    deadline = load_analysis_policy(POLICIES).deadline_s
    suite = build_analyzers(POLICIES, load_policies(POLICIES).bandit, cache_entries=0)
    try:
        suite.assess(Submission.from_bytes(b"print('warm')\n", Provenance.MAI, 1 << 20))
        seconds, timeouts, refused = [], 0, 0
        for path in programs:
            try:
                submission = Submission.from_bytes(path.read_bytes(), Provenance.MAI, 1 << 20)
            except DomainError:  # refused at the door (e.g. a coding line): never assessed
                refused += 1
                continue
            started = time.perf_counter()
            assessment = suite.assess(submission)
            seconds.append(time.perf_counter() - started)
            timeouts += any(finding.rule_id == "analyzer-timeout" for finding in assessment.findings)
    finally:
        suite.close()
    print(f"{len(programs)} programs (blind, blind2, blind3; {refused} refused at the door), hard bound {deadline:g} s per submission")
    print(f"p50 {statistics.median(seconds) * 1000:.0f} ms  p95 {percentile(seconds, 0.95) * 1000:.0f} ms  "
          f"p99 {percentile(seconds, 0.99) * 1000:.0f} ms  slowest {max(seconds) * 1000:.0f} ms  over the bound (failed closed): {timeouts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
