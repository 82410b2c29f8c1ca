"""The read models (issue #15): what ran, what waits for an answer, and the daily figures, kept
from the ledger by application.projections, exactly once per event.

``ExecutionViews`` is the port: a tracking recorder (eventsourcing's ``TrackingRecorder``) that
also keeps three views. The projection turns each event into a ``ViewChange`` (plain data, no
I/O); the recorder writes the changes and the tracking position in ONE transaction, so a view is
never ahead of or behind its position, and a restart resumes where the last commit ended. The
adapters live in infrastructure/views/*.py, beside the ledger in its own database;
``InMemoryViews`` (application.views_memory) is the fake for unit tests.

The views are a convenience, never the record: nothing in them is hashed or signed, and
``projections rebuild`` drops them and reads them again from the ledger.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from eventsourcing.persistence import Tracking, TrackingRecorder

from mai_safety.domain.payloads import FindingRecord, LimitsRecord

#: The tracking name of the ledger's notifications (the application's name, as the library does).
LEDGER = "MaiSafety"


@dataclass(frozen=True)
class ExecutionRow:
    """One execution as the ``executions`` view holds it (times: ISO 8601, UTC)."""

    execution_id: str
    position: int  # the ledger position of its Assessed: the order "newest first" follows
    status: str
    level: str
    decision: str
    provenance: str
    code_sha256: str
    created_at: str
    submitter: str | None = None
    approver: str | None = None
    task_id: str | None = None
    session_id: str | None = None
    started_at: str | None = None
    ended_at: str | None = None
    duration_s: float | None = None
    termination_reason: str | None = None
    limits: LimitsRecord | None = None
    peak_cpu_percent: float | None = None
    peak_memory_bytes: int | None = None
    peak_pids: int | None = None
    output_bytes: int | None = None
    findings: list[FindingRecord] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class PendingRow:
    """An execution awaiting a confirmation (HIGH) or an override (BLOCKED)."""

    execution_id: str
    kind: str  # "confirmation" or "override"
    level: str
    reason: str
    requested_at: str
    answer_by: str | None
    submitter: str | None
    findings: list[FindingRecord] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Reading:
    """One resource sample, as the peaks are raised by it (CPU: the share over a window of at
    least ``CPU_WINDOW_S`` since the reading that opened it, never from zero: domain.supervision);
    an ending's reading brings the supervisor's own ``cpu_percent``, taken over every reading."""

    elapsed_s: float
    cpu_seconds: float
    memory_peak_bytes: int
    pids: int
    output_bytes: int
    cpu_percent: float | None = None


#: The daily figures' names: a count per (day, figure, key).
FIGURES = ("level", "decision", "outcome", "termination", "override", "confirmation", "denial", "finding")


@dataclass(frozen=True)
class Count:
    """Add one to (day, figure, key); a finding's key is ``analyzer/rule``."""

    day: str
    figure: str
    key: str


@dataclass(frozen=True)
class ViewChange:
    """What one event does to the views. ``created``: the new row (Assessed); ``updates``:
    columns of the row to set; ``reading``: peaks to raise; ``ended_at``: a Terminated sets
    status ``terminated`` if it had started, else ``rejected``, and counts that as the day's
    outcome (a Completed says ``completed`` in ``updates`` and counts it in ``counts``)."""

    execution_id: str
    created: ExecutionRow | None = None
    updates: dict[str, Any] = field(default_factory=dict)
    reading: Reading | None = None
    terminated_on: str | None = None  # the day, for the outcome count of a Terminated
    counts: tuple[Count, ...] = ()
    pending: PendingRow | None = None
    answered: bool = False  # no longer pending

    @property
    def empty(self) -> bool:
        return self == ViewChange(self.execution_id)


@dataclass(frozen=True)
class ExecutionFilter:
    """Which executions to list: every given field must match; newest first, ``limit`` a page."""

    status: str | None = None
    level: str | None = None
    since: str | None = None  # created at or after (ISO 8601)
    until: str | None = None  # created before
    submitter: str | None = None
    task_id: str | None = None
    limit: int = 50
    page: int = 1


class ExecutionViews(TrackingRecorder):
    """The read models' store. Contract:

    - ``apply(changes, tracking)`` writes every change, in order, and ``tracking`` in one
      transaction: all or nothing. A tracking position at or below the one recorded raises
      eventsourcing's ``IntegrityError`` and writes nothing (never counted twice).
    - ``max_tracking_id(LEDGER)``: the last position applied (None: none yet).
    - ``drop()`` empties the views and forgets the position, in one transaction.
    - The readers return plain rows; ``counts(since_day, until_day)`` the daily figures
      (days inclusive, ``YYYY-MM-DD``; None: unbounded)."""

    @abstractmethod
    def apply(self, changes: Sequence[ViewChange], tracking: Tracking) -> None: ...

    @abstractmethod
    def drop(self) -> None: ...

    @abstractmethod
    def executions(self, query: ExecutionFilter) -> list[ExecutionRow]: ...

    @abstractmethod
    def pending(self) -> list[PendingRow]: ...

    @abstractmethod
    def counts(self, since_day: str | None, until_day: str | None) -> list[tuple[str, str, str, int]]:
        """(day, figure, key, count), for the figures in ``FIGURES``."""
