"""Assessment on its own: a verdict with nothing recorded and nothing run (``mai-safety assess``)."""

from __future__ import annotations

from mai_safety.domain.assessment import Assessment, Submission
from mai_safety.domain.levels import Provenance

from .ports import Assessor
from .reports import AssessmentReport


def assess_code(
    assessor: Assessor, code: bytes, *, provenance: Provenance, max_code_bytes: int, source: str = "the code"
) -> AssessmentReport:
    submission = Submission.from_bytes(code, provenance, max_code_bytes, source)
    return report_for(submission, assessor.assess(submission))


def report_for(submission: Submission, assessment: Assessment) -> AssessmentReport:
    return AssessmentReport(
        level=assessment.level.value,
        decision=assessment.decision.value,
        code_sha256=submission.sha256,
        findings=[finding.to_dict() for finding in assessment.findings],
        analyzers=list(assessment.analyzers),
        duration_ms=round(assessment.duration_ms, 3),
        complexity=dict(assessment.complexity),
    )
