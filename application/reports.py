"""Plain data the application hands out: never live aggregates."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class ExecutionReport:
    execution_id: str
    level: str
    status: str
    decision: str
    provenance: str
    code_sha256: str
    findings: list[dict[str, Any]]
    exit_code: int | None = None
    stdout: str = ""
    stderr: str = ""
    termination_reason: str | None = None
    duration_s: float | None = None
    output_truncated: bool = False
    trust: str | None = None
    limits: dict[str, Any] | None = None
    override_kind: str | None = None
    answer_by: str | None = None
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class AssessmentReport:
    level: str
    decision: str
    code_sha256: str
    findings: list[dict[str, Any]]
    analyzers: list[str]
    duration_ms: float
    complexity: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class VerificationReport:
    intact: bool
    checked: int
    head_position: int
    head_hash: str
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
