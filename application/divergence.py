"""Predicted against observed (decision 0044): a run seen doing what its assessment did not predict.

After a run ends, its observed record (domain.observed) is set against the level it was given:
each effect code rated below HIGH was not predicted to have is a divergence, recorded on the
execution (``Diverged``, which the alert follower turns into a ``diverged`` alert) and, the first
time for that code, as a ``DivergedCode`` whose existence rates the code at least HIGH from then on
(``with_floor``, applied to every verdict after any cache, so neither a restart nor a cached LOW
verdict undoes it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import get_topic

from mai_safety.domain.access import Action, check_acting_principal_may
from mai_safety.domain.assessment import Assessment, Finding, Submission
from mai_safety.domain.diverged_code import DivergedCode, diverged_code_id
from mai_safety.domain.execution import Execution
from mai_safety.domain.levels import RiskLevel
from mai_safety.domain.observed import divergences, floor_finding_message

FLOOR_RULE = "observed-divergence"


def record_divergences(execution: Execution, save: Callable[..., Any], load: Callable[[Any], Any]) -> bool:
    """Record the ended ``execution``'s divergences, if any; True when there were."""
    found = divergences(execution.level, execution.observed, execution.findings)
    if not found or execution.divergences:
        return False
    execution.diverge(found)
    if _known(load, execution.code_sha256):
        save(execution)
        return True
    try:
        save(execution, DivergedCode.record(execution.code_sha256, str(execution.id), execution.level.value))
    except IntegrityError:
        save(execution)  # another run of the same code recorded the floor first
    return True


def _known(load: Callable[[Any], Any], code_sha256: str) -> DivergedCode | None:
    try:
        found = load(diverged_code_id(code_sha256))
    except AggregateNotFoundError:
        return None
    return found if isinstance(found, DivergedCode) else None


def with_floor(assessment: Assessment, submission: Submission, load: Callable[[Any], Any]) -> Assessment:
    """``assessment``, rated at least HIGH with a finding that says why if this code has diverged."""
    known = _known(load, submission.sha256)
    if known is None:
        return assessment
    finding = Finding(
        analyzer="observed", rule_id=FLOOR_RULE, level=RiskLevel.HIGH,
        message=floor_finding_message(known.level, f"execution {known.execution_id}"),
    )
    level = assessment.level if assessment.level is RiskLevel.BLOCKED else RiskLevel.HIGH
    return replace(assessment, level=level, findings=(*assessment.findings, finding))


def diverged_executions(recorder: Any, mapper: Any, limit: int = 100) -> list[dict[str, Any]]:
    """The executions recorded as diverged, newest first (at most ``limit``): ``executions
    --diverged`` and the report. Read from the ledger by the ``Diverged`` topic, not from a read
    model; needs the right to read any execution."""
    check_acting_principal_may(Action.READ_ANY)
    rows: list[dict[str, Any]] = []
    start: int | None = None
    topics = [get_topic(Execution.Diverged)]
    while True:
        notifications = recorder.select_notifications(start=start, limit=1000, topics=topics, inclusive_of_start=False)
        for notification in notifications:
            event = mapper.to_domain_event(notification)
            rows.append({
                "execution_id": str(event.originator_id), "recorded_at": event.timestamp.isoformat(), "level": event.level,
                "code_sha256": event.code_sha256, "divergences": list(event.divergences), "position": notification.id,
            })
        if len(notifications) < 1000:
            return sorted(rows, key=lambda row: -int(row["position"]))[:limit]
        start = notifications[-1].id
