"""The projection that keeps the read models (application.views), the library's way: an
eventsourcing ``Projection`` with one method per event it cares about, each returning what the
event changes; the view recorder writes the change and the tracking position in one transaction.

``catch_up`` follows the ledger by polling its notifications from the tracking position (the
SQLite recorder has no subscription; Postgres could LISTEN, but one way for both is simpler and
the service's follower polls often: docs/decisions/0021). It applies a page of events per
transaction. Two followers at once are safe: the second one's tracking position is refused, its
page rolled back, and it reads on from the position the first committed.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone
from typing import Any

from eventsourcing.dispatch import singledispatchmethod
from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import ApplicationRecorder, IntegrityError, Mapper, Tracking
from eventsourcing.projection import Projection
from eventsourcing.utils import get_topic

from mai_safety.domain.execution import Execution
from mai_safety.domain.levels import GateDecision, RiskLevel

from .views import LEDGER, Count, ExecutionRow, ExecutionViews, PendingRow, Reading, ViewChange

PAGE = 1000


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat()


def day_of(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).date().isoformat()


class ExecutionsProjection(Projection[ExecutionViews]):
    """What each ``Execution`` event does to the executions, pending and daily-figures views."""

    name = "executions"
    topics = tuple(
        get_topic(kind)
        for kind in (
            Execution.Assessed, Execution.OverrideRequested, Execution.Overridden, Execution.Started,
            Execution.ResourceSampled, Execution.Completed, Execution.Terminated,
        )
    )

    @singledispatchmethod
    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        change = self.change_for(domain_event)
        self.view.apply([_placed(change, tracking.notification_id)] if change else [], tracking)

    @singledispatchmethod
    def change_for(self, domain_event: Any) -> ViewChange | None:
        return None  # another aggregate's event (tokens): only the position moves

    @change_for.register
    def _(self, event: Execution.Assessed) -> ViewChange:
        caller = event.caller or {}
        level = RiskLevel(event.level)
        decision = GateDecision.for_level(level).value
        day = day_of(event.timestamp)
        row = ExecutionRow(
            execution_id=str(event.originator_id),
            position=0,  # its notification's id, set as it is applied (_placed)
            status="assessed",
            level=level.value,
            decision=decision,
            provenance=event.provenance,
            code_sha256=event.code_sha256,
            created_at=iso(event.timestamp),
            # Service mode: the token's principal; on the CLI, the person acting (the event's actor).
            submitter=caller.get("principal") or event.actor,
            task_id=caller.get("task_id") or None,
            findings=list(event.findings),
            session_id=caller.get("session_id") or None,
        )
        findings = tuple(Count(day, "finding", f"{item['analyzer']}/{item['rule_id']}") for item in event.findings)
        return ViewChange(
            row.execution_id,
            created=row,
            counts=(Count(day, "level", level.value), Count(day, "decision", decision), *findings),
        )

    @change_for.register
    def _(self, event: Execution.OverrideRequested) -> ViewChange:
        execution_id = str(event.originator_id)
        return ViewChange(
            execution_id,
            updates={"status": "awaiting_override"},
            pending=PendingRow(
                execution_id=execution_id,
                kind=event.kind,
                level="",  # the recorder copies level, submitter and findings from the execution's row
                reason=event.reason,
                requested_at=iso(event.timestamp),
                answer_by=event.answer_by or None,
                submitter=None,
            ),
        )

    @change_for.register
    def _(self, event: Execution.Overridden) -> ViewChange:
        return ViewChange(
            str(event.originator_id),
            updates={"status": "overridden", "approver": event.actor},
            counts=(Count(day_of(event.timestamp), event.kind, event.actor),),
            answered=True,
        )

    @change_for.register
    def _(self, event: Execution.Started) -> ViewChange:
        return ViewChange(
            str(event.originator_id),
            updates={"status": "running", "started_at": iso(event.timestamp), "limits": dict(event.limits)},
        )

    @change_for.register
    def _(self, event: Execution.ResourceSampled) -> ViewChange:
        return ViewChange(str(event.originator_id), reading=_reading(event.sample))

    @change_for.register
    def _(self, event: Execution.Completed) -> ViewChange:
        day = day_of(event.timestamp)
        return ViewChange(
            str(event.originator_id),
            updates={"status": "completed", **_ending(event.outcome, event.timestamp)},
            reading=_final_reading(event.outcome),
            counts=(Count(day, "outcome", "completed"),),
            answered=True,
        )

    @change_for.register
    def _(self, event: Execution.Terminated) -> ViewChange:
        day = day_of(event.timestamp)
        counts = [Count(day, "termination", event.reason)]
        if event.reason == "denied":
            counts.append(Count(day, "denial", event.actor))
        return ViewChange(
            str(event.originator_id),
            updates={"termination_reason": event.reason, **_ending(event.outcome, event.timestamp)},
            reading=_final_reading(event.outcome),
            terminated_on=day,
            counts=tuple(counts),
            answered=True,
        )


def _ending(outcome: Any, moment: datetime) -> dict[str, Any]:
    duration = outcome.get("duration_s")
    return {"ended_at": iso(moment), "duration_s": float(duration) if duration is not None else None}


def _reading(sample: Any) -> Reading:
    """A sample as recorded; the earliest ledgers hold samples of other shapes, read as zeros."""
    return Reading(
        elapsed_s=float(sample.get("elapsed_s", 0)),
        cpu_seconds=float(sample.get("cpu_seconds", 0)),
        memory_peak_bytes=int(sample.get("memory_peak_bytes", sample.get("memory_bytes", 0))),
        pids=int(sample.get("pids", 0)),
        output_bytes=int(sample.get("output_bytes", 0)),
    )


def _final_reading(outcome: Any) -> Reading | None:
    """The run's peaks as the supervisor kept them (every sample, recorded or not)."""
    peaks, duration = outcome.get("peaks"), outcome.get("duration_s")
    if not peaks or duration is None:
        return None
    return Reading(
        elapsed_s=float(duration),
        cpu_seconds=float(peaks.get("cpu_seconds", 0)),
        memory_peak_bytes=int(peaks.get("memory_peak_bytes", 0)),
        pids=int(peaks.get("pids", 0)),
        output_bytes=int(outcome.get("output_bytes", 0)),
        cpu_percent=float(peaks["cpu_percent"]) if peaks.get("cpu_percent") is not None else None,
    )


def catch_up(recorder: ApplicationRecorder, mapper: Mapper[Any], views: ExecutionViews, *, page: int = PAGE) -> int:
    """Apply every event after the tracking position; return how many events were read."""
    projection = ExecutionsProjection(views)
    read = 0
    position = views.max_tracking_id(LEDGER) or 0
    while True:
        notifications = recorder.select_notifications(start=position, limit=page, inclusive_of_start=False)
        if not notifications:
            return read
        changes = []
        for notification in notifications:
            event: DomainEventProtocol[Any] = mapper.to_domain_event(notification)
            change = projection.change_for(event)
            if change is not None:
                changes.append((notification.id, change))
        try:
            views.apply([_placed(change, at) for at, change in changes], Tracking(LEDGER, notifications[-1].id))
        except IntegrityError:
            position = views.max_tracking_id(LEDGER) or 0  # another follower applied them first
            continue
        read += len(notifications)
        position = notifications[-1].id


def _placed(change: ViewChange, position: int) -> ViewChange:
    """A new row learns its ledger position (the order of "newest first")."""
    if change.created is None:
        return change
    return replace(change, created=replace(change.created, position=position))


def lag(recorder: ApplicationRecorder, views: ExecutionViews) -> dict[str, int]:
    """The ledger's head, the views' position, and how far behind they are (events)."""
    head = recorder.max_notification_id() or 0
    position = views.max_tracking_id(LEDGER) or 0
    return {"head": head, "position": position, "lag": max(0, head - position)}
