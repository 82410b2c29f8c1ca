"""Plain data the application hands out: never live aggregates."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from mai_safety.domain.assessment import Assessment, Submission
from mai_safety.domain.payloads import CallerLabels, FileRecord, FindingRecord, LimitsRecord


@dataclass(frozen=True)
class ExecutionReport:
    execution_id: str
    level: str
    status: str
    decision: str
    provenance: str
    code_sha256: str
    findings: list[FindingRecord]
    exit_code: int | None = None
    stdout: str = ""
    stderr: str = ""
    termination_reason: str | None = None
    duration_s: float | None = None
    output_truncated: bool = False
    trust: str | None = None
    limits: LimitsRecord | None = None
    override_kind: str | None = None
    answer_by: str | None = None
    detail: str = ""
    #: Service mode: the principal that submitted it, and the caller's labels (task_id,
    #: session_id, on_behalf_of), recorded on Assessed and never used for a decision.
    submitted_by: str | None = None
    caller: CallerLabels = field(default_factory=lambda: CallerLabels())
    #: The files it was given and left (name, size, SHA-256, media type; the bytes: ``/files/{name}``).
    files_in: list[FileRecord] = field(default_factory=list)
    files_out: list[FileRecord] = field(default_factory=list)
    #: When (ISO 8601, UTC; None until it happens), its usage's peaks, and what the code attempted
    #: (the run's self-reported record, summed up): application.execution_answer.
    submitted_at: str | None = None
    started_at: str | None = None
    ended_at: str | None = None
    usage: dict[str, Any] = field(default_factory=dict)
    attempted: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class AssessmentReport:
    level: str
    decision: str
    code_sha256: str
    findings: list[FindingRecord]
    analyzers: list[str]
    duration_ms: float
    complexity: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class VerificationReport:
    """What ``audit verify`` found. ``problems`` are one line each; ``details`` the same problems
    as data (kind, position, execution, version, event, checkpoint, message). ``complete`` is
    False when part could not be checked (``unchecked`` says what): then intact means only that
    nothing wrong was seen in the rest."""

    intact: bool
    checked: int
    head_position: int
    head_hash: str
    problems: list[str] = field(default_factory=list)
    details: list[dict[str, Any]] = field(default_factory=list)
    scope: dict[str, Any] = field(default_factory=dict)
    checkpoints: int = 0
    signatures: int = 0
    newest_checkpoint: dict[str, Any] | None = None
    key_id: str | None = None
    complete: bool = True
    unchecked: list[str] = field(default_factory=list)
    #: The position of an ending recorded moments ago, still awaiting its deferred checkpoint.
    awaiting_seal: int | None = None
    #: Event MACs checked (0 without the private key: ``notes`` says they were not).
    macs: int = 0
    #: The newest witnessed checkpoint the ledger was checked against (witness, sequence, position).
    witnessed: dict[str, Any] | None = None
    #: What the verifier should know that is not tampering: unchecked MACs, the key's or the
    #: witness's place, a witness that failed, events from before MACs awaiting their seal.
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ReplayReport:
    """One execution's timeline rebuilt from its verified events, as of a moment."""

    execution_id: str
    as_of: str | None
    intact: bool
    problems: list[str]
    covered_by: dict[str, Any] | None
    status: str | None
    code: str | None
    code_sha256: str | None
    code_sha256_matches: bool | None
    level: str | None
    provenance: str | None
    findings: list[FindingRecord]
    decisions: list[dict[str, Any]]
    run: dict[str, Any] | None
    samples: list[dict[str, Any]]
    ending: dict[str, Any] | None
    timeline: list[dict[str, Any]]
    verification: VerificationReport

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def report_for(submission: Submission, assessment: Assessment) -> AssessmentReport:
    """The verdict on a submission, as plain data."""
    return AssessmentReport(
        level=assessment.level.value,
        decision=assessment.decision.value,
        code_sha256=submission.sha256,
        findings=[finding.to_dict() for finding in assessment.findings],
        analyzers=list(assessment.analyzers),
        duration_ms=round(assessment.duration_ms, 3),
        complexity=dict(assessment.complexity),
    )
