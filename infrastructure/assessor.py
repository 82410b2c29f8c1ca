"""The assessor: every analyzer over the same code, findings merged, the level the highest of them.

An analyzer that raises is not trusted to have found nothing: its failure is a finding at the
policy's failure level (at least MEDIUM), so a broken analyzer can never produce LOW.
"""

from __future__ import annotations

import time
from typing import Protocol

from mai_safety.application.ports import Assessor
from mai_safety.domain.assessment import Assessment, Finding, Submission
from mai_safety.domain.levels import RiskLevel


class Analyzer(Protocol):
    name: str

    def analyze(self, code: str) -> list[Finding]: ...


class AnalyzerSuite(Assessor):
    def __init__(self, analyzers: list[Analyzer], failure_level: RiskLevel) -> None:
        self._analyzers = analyzers
        self._failure_level = max(failure_level, RiskLevel.MEDIUM)

    def assess(self, submission: Submission) -> Assessment:
        started = time.perf_counter()
        findings: list[Finding] = []
        for analyzer in self._analyzers:
            try:
                findings.extend(analyzer.analyze(submission.code))
            except Exception as exc:  # noqa: BLE001 - any failure of an analyzer must fail closed
                findings.append(
                    Finding(
                        analyzer=analyzer.name,
                        rule_id="analyzer-failed",
                        level=self._failure_level,
                        message=f"{analyzer.name} failed ({type(exc).__name__}: {str(exc)[:200]}); "
                        "the code was not fully checked",
                    )
                )
        findings.sort(key=lambda finding: (-finding.level.rank, finding.line, finding.rule_id))
        return Assessment(
            level=RiskLevel.highest([finding.level for finding in findings]),
            findings=tuple(findings),
            analyzers=tuple(analyzer.name for analyzer in self._analyzers),
            duration_ms=(time.perf_counter() - started) * 1000,
            complexity={"lines": submission.code.count("\n") + 1},
        )
