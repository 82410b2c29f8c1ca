"""Forensic replay: one execution rebuilt from its verified events, as of any moment.

The timeline shows every recorded event with its ledger position and whether it verified; the
report adds what was run, the decisions taken about it, its samples and its end, and whether its
recorded code still hashes to its recorded SHA-256. Output kept as a blob is read back whole.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any
from uuid import UUID

from .blobs import with_full_output
from .verdicts import Audit, execution_id_of
from mai_safety.application.errors import ExecutionNotFound
from mai_safety.application.reports import ReplayReport, VerificationReport


def replay_execution(audit: Audit, execution_id: str, as_of: datetime | None = None) -> ReplayReport:
    ledger = audit.ledger()
    verification = audit.verify(execution=execution_id)
    identifier = execution_id_of(execution_id)
    flagged = {detail["version"] for detail in verification.details if detail["execution"] == identifier}
    timeline: list[dict[str, Any]] = []
    events: list[Any] = []
    for record in ledger.select_execution(identifier):
        entry: dict[str, Any] = {
            "position": record.position,
            "version": record.version,
            "event": record.event_name,
            "verified": record.version not in flagged,
        }
        try:
            event = audit.decode(record)
        except Exception as exc:  # noqa: BLE001 - a tampered state may be anything; say so and go on
            timeline.append({**entry, "error": f"the stored state cannot be read: {type(exc).__name__}: {exc}"})
            continue
        if as_of is not None and event.timestamp > as_of:
            break
        events.append(event)
        fields = _event_fields(event)
        if isinstance(fields.get("outcome"), dict):
            fields["outcome"] = with_full_output(fields["outcome"], audit.blobs)
        timeline.append({**entry, **fields})
    if not events:
        when = f" by {as_of.isoformat()}" if as_of else ""
        raise ExecutionNotFound(f"nothing was recorded for execution {identifier}{when}")
    return _replay_report(identifier, as_of, events, timeline, verification)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if hasattr(value, "value") and not isinstance(value, (str, int, float, bool)):
        return _plain(value.value)  # enums
    return value


def _event_fields(event: Any) -> dict[str, Any]:
    skip = {"originator_id", "originator_version", "originator_topic", "timestamp"}
    fields = {key: _plain(value) for key, value in vars(event).items() if key not in skip}
    return {"timestamp": event.timestamp.isoformat(), **fields}


_DECISIONS = {"OverrideRequested", "Overridden"}
_DECIDED_ENDINGS = {"denied", "no_answer", "cancelled"}


def _replay_report(
    identifier: str,
    as_of: datetime | None,
    events: list[Any],
    timeline: list[dict[str, Any]],
    verification: VerificationReport,
) -> ReplayReport:
    by_name: dict[str, list[dict[str, Any]]] = {}
    for entry in timeline:
        if "error" not in entry:
            by_name.setdefault(entry["event"], []).append(entry)
    assessed = (by_name.get("Assessed") or [{}])[0]
    code = assessed.get("code")
    recorded_sha = assessed.get("code_sha256")
    matches = None
    if isinstance(code, str) and isinstance(recorded_sha, str):
        matches = hashlib.sha256(code.encode("utf-8")).hexdigest() == recorded_sha
    problems = list(verification.problems)
    intact = verification.intact
    if matches is False:
        intact = False
        problems.append(
            f"execution {identifier} event 1 (Assessed): code hash mismatch: the recorded code does not hash to "
            f"its recorded SHA-256 {recorded_sha}"
        )
    decisions = [
        entry
        for entry in timeline
        if entry.get("event") in _DECISIONS
        or (entry.get("event") == "Terminated" and entry.get("reason") in _DECIDED_ENDINGS)
    ]
    ending = next((entry for entry in reversed(timeline) if entry.get("event") in ("Completed", "Terminated")), None)
    starts = by_name.get("Started", [])
    started = starts[-1] if starts else None
    status, state_error = _rebuild(events)
    newest = verification.newest_checkpoint
    last_position = max(entry["position"] for entry in timeline)
    covered = newest if newest and int(newest["position"]) >= last_position else None
    if state_error:
        problems.append(f"execution {identifier}: its state could not be rebuilt: {state_error}")
    return ReplayReport(
        execution_id=identifier,
        as_of=as_of.isoformat() if as_of else None,
        intact=intact,
        problems=problems,
        covered_by=covered,
        status=status,
        code=code,
        code_sha256=recorded_sha,
        code_sha256_matches=matches,
        level=assessed.get("level"),
        provenance=assessed.get("provenance"),
        findings=list(assessed.get("findings") or []),
        decisions=decisions,
        run=started,
        samples=[entry.get("sample", {}) for entry in by_name.get("ResourceSampled", [])],
        ending=ending,
        timeline=timeline,
        verification=verification,
    )


def _rebuild(events: list[Any]) -> tuple[str | None, str | None]:
    """The execution's status after these events, rebuilt the way the repository does."""
    aggregate = None
    try:
        for event in events:
            aggregate = event.mutate(aggregate)
    except Exception as exc:  # noqa: BLE001 - a forged or altered event may break the rebuild; report it
        return None, f"{type(exc).__name__}: {exc}"
    status = getattr(aggregate, "status", None)
    return (status.value if status is not None else None), None


__all__ = ["replay_execution"]
