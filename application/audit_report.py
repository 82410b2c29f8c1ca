"""The audit report's figures as plain data: what ``mai-safety report`` prints as text or JSON and
renders as one self-contained HTML file (issue #15). The read models fill it (application side);
the renderers (infrastructure side) only read it, so they agree through this one shape, and the
JSON form is ``to_dict()`` of it, key for key.

Counts are per execution unless a name says otherwise; a day is a UTC date (``YYYY-MM-DD``); times
are ISO 8601 in UTC. Empty mappings and lists mean "none in the period", never "unknown"."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class LedgerAnchor:
    """Ties the report to the signed record: the ledger's head, the newest checkpoint at or
    before it, and whether ``audit verify`` passed when the report was made (None: not run)."""

    head_position: int
    checkpoint_sequence: int | None = None
    checkpoint_position: int | None = None
    checkpoint_sealed_at: str | None = None
    verified: bool | None = None
    verification_summary: str = ""


@dataclass(frozen=True)
class DayFigures:
    """One UTC day: executions by level, and by outcome (completed, terminated, rejected...)."""

    day: str
    by_level: dict[str, int] = field(default_factory=dict)
    by_outcome: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class FindingCount:
    analyzer: str
    rule: str
    count: int


@dataclass(frozen=True)
class Percentiles:
    """Of one resource figure over the executions that ran: None where none ran."""

    p50: float | None = None
    p95: float | None = None
    max: float | None = None


@dataclass(frozen=True)
class UsageAgainstLimit:
    """One run's peaks beside the limits it was granted (for the usage-against-limits chart)."""

    execution_id: str
    started_at: str
    peak_memory_bytes: int | None
    memory_limit_bytes: int | None
    peak_cpu_percent: float | None
    cpus: float | None
    duration_s: float | None
    timeout_s: float | None


@dataclass(frozen=True)
class PolicyChange:
    """One applied policy version (application.policies): who applied it, when, which files changed;
    the whole diff is on the ledger (``mai-safety policy show --history``)."""

    version: int
    applied_at: str
    applied_by: str | None
    changed_files: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class RunFiles:
    """One run's files: those it was given and those it left (name, size, SHA-256, media type), and
    its small PNG, JPEG and GIF outputs as thumbnails: name to media type and base64 bytes, each
    checked against its recorded SHA-256 (domain.files.thumbnail_type says which are shown)."""

    execution_id: str
    files_in: list[dict[str, Any]] = field(default_factory=list)
    files_out: list[dict[str, Any]] = field(default_factory=list)
    thumbnails: dict[str, tuple[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class AuditReport:
    since: str | None
    until: str | None
    generated_at: str
    ledger: LedgerAnchor
    executions: int = 0
    by_level: dict[str, int] = field(default_factory=dict)
    by_decision: dict[str, int] = field(default_factory=dict)
    by_outcome: dict[str, int] = field(default_factory=dict)
    terminations_by_reason: dict[str, int] = field(default_factory=dict)
    per_day: list[DayFigures] = field(default_factory=list)
    overrides_by_actor: dict[str, int] = field(default_factory=dict)
    confirmations_by_actor: dict[str, int] = field(default_factory=dict)
    denials_by_actor: dict[str, int] = field(default_factory=dict)
    top_findings: list[FindingCount] = field(default_factory=list)
    #: Keys: "duration_s", "peak_cpu_percent", "peak_memory_bytes", "peak_pids", "output_bytes".
    resources: dict[str, Percentiles] = field(default_factory=dict)
    usage_against_limits: list[UsageAgainstLimit] = field(default_factory=list)
    pending: int = 0
    oldest_pending_since: str | None = None
    #: Policy versions applied in the period, oldest first (PolicyCommands.policy_changes fills it).
    policy_changes: list[PolicyChange] = field(default_factory=list)
    #: The files of the newest runs in the period that were given or left any (ReadModels.report).
    run_files: list[RunFiles] = field(default_factory=list)
    #: Executions seen doing what their level did not predict, recorded in the period, newest first
    #: (application.divergence.diverged_executions' rows; their details quote what the code chose).
    diverged: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AuditReport:
        """The report ``to_dict()`` (or ``GET /v1/report``) gave, back as the renderers read it."""
        return cls(**{
            **data,
            "ledger": LedgerAnchor(**data["ledger"]),
            "per_day": [DayFigures(**day) for day in data.get("per_day", [])],
            "top_findings": [FindingCount(**item) for item in data.get("top_findings", [])],
            "resources": {name: Percentiles(**values) for name, values in data.get("resources", {}).items()},
            "usage_against_limits": [UsageAgainstLimit(**item) for item in data.get("usage_against_limits", [])],
            "policy_changes": [PolicyChange(**item) for item in data.get("policy_changes", [])],
            "run_files": [
                RunFiles(**{**item, "thumbnails": {name: tuple(shown) for name, shown in item.get("thumbnails", {}).items()}})
                for item in data.get("run_files", [])
            ],
        })
