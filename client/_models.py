"""What the service answers, as typed models of the client's own. They mirror the service's JSON
(``application/reports.py``, ``infrastructure/http/models.py``) without importing it, and accept
fields a newer service adds (``extra="allow"``), so an upgrade of the service breaks no client."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ._core import AWAITING_OVERRIDE, FINAL_STATUSES


class _Answer(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)


class Finding(_Answer):
    analyzer: str
    rule_id: str
    level: str
    message: str
    line: int = 0
    column: int = 0
    snippet: str = ""
    severity: str = ""
    confidence: str = ""
    cwe: str = ""


class FileInfo(_Answer):
    """A file an execution was given (``files_in``) or left (``files_out``); its bytes: ``download``."""

    name: str
    bytes: int
    sha256: str
    media_type: str = ""


class Execution(_Answer):
    """An execution as the service reports it (``GET /v1/executions/{id}``)."""

    execution_id: str
    level: str
    status: str
    decision: str
    provenance: str
    code_sha256: str
    findings: list[Finding] = Field(default_factory=list)
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
    submitted_by: str | None = None
    caller: dict[str, str] = Field(default_factory=dict)
    files_in: list[FileInfo] = Field(default_factory=list)
    files_out: list[FileInfo] = Field(default_factory=list)
    #: When (ISO 8601, UTC; None until it happens), the usage's peaks (cpu_seconds, cpu_percent,
    #: memory_peak_bytes, pids) and what the code attempted (the run's self-reported record, summed
    #: up: counts and first few of each kind, complete or why not). Absent from older services.
    submitted_at: str | None = None
    started_at: str | None = None
    ended_at: str | None = None
    usage: dict[str, Any] = Field(default_factory=dict)
    attempted: dict[str, Any] = Field(default_factory=dict)

    @property
    def is_final(self) -> bool:
        return self.status in FINAL_STATUSES

    @property
    def awaiting_override(self) -> bool:
        return self.status == AWAITING_OVERRIDE


class PendingExecution(_Answer):
    """A ``202``: the server's wait ended before the execution did; read it again by id."""

    execution_id: str
    status: str


class Assessment(_Answer):
    """The verdict alone (``POST /v1/assessments``): nothing was recorded, nothing ran."""

    level: str
    decision: str
    code_sha256: str
    findings: list[Finding] = Field(default_factory=list)
    analyzers: list[str] = Field(default_factory=list)
    duration_ms: float = 0.0
    complexity: dict[str, int] = Field(default_factory=dict)


class Event(_Answer):
    """One recorded event with its actor and its place on the chain; other fields by event kind."""

    event: str
    version: int
    timestamp: str
    actor: str | None = None
    chain: dict[str, Any] | None = None


class Verification(_Answer):
    """``GET /v1/audit/verify`` (role auditor): both hash chains and every signed checkpoint."""

    intact: bool
    checked: int
    head_position: int
    head_hash: str
    problems: list[str] = Field(default_factory=list)
    details: list[dict[str, Any]] = Field(default_factory=list)
    complete: bool = True
    unchecked: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


class ServiceStatus(_Answer):
    """``GET /v1/status``: what answers (Docker, the ledger, gVisor's runtime)."""

    ok: bool


class Health(_Answer):
    status: Literal["ok"] | str


class Limits(BaseModel):
    """Lower the limits within what the policy grants the code's trust level (None: the policy's)."""

    model_config = ConfigDict(extra="forbid")

    cpus: float | None = Field(default=None, gt=0)
    memory_bytes: int | None = Field(default=None, gt=0)
    pids: int | None = Field(default=None, gt=0)
    timeout_s: float | None = Field(default=None, gt=0)
    output_bytes: int | None = Field(default=None, gt=0)
    cpu_seconds: float | None = Field(default=None, gt=0)
