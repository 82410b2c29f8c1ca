"""What an execution's answer says beyond its state, so that a caller need not read its events:
when it was submitted, started and ended (the events' own timestamps), the peaks of its usage, and
a summary of what the code attempted (the run's self-reported record, docs/decisions/0033).
Plain data from the aggregate."""

from __future__ import annotations

from typing import Any

from mai_safety.domain.execution import Execution

#: The peaks an answer carries, as the supervisor keeps them (``RunOutcome.peaks``).
USAGE_KEYS = ("cpu_seconds", "cpu_percent", "memory_peak_bytes", "pids")


def answer_extras(execution: Execution) -> dict[str, Any]:
    """``submitted_at``, ``started_at``, ``ended_at`` (ISO 8601, UTC; None until it happens),
    ``usage`` (the peaks) and ``attempted`` (the record's summary; empty before a run ends)."""
    return {
        "submitted_at": execution.created_on.isoformat(),
        "started_at": execution.started_on.isoformat() if execution.started_on is not None else None,
        "ended_at": execution.modified_on.isoformat() if execution.status.is_final else None,
        "usage": usage_peaks(execution),
        "attempted": attempted_summary(execution.outcome),
    }


def usage_peaks(execution: Execution) -> dict[str, Any]:
    """The run's peaks as its ending recorded them; while it runs (or for an ending without
    them), the highest of its recorded samples."""
    peaks = dict(execution.outcome.get("peaks") or {})
    if not peaks and execution.samples:
        samples = execution.samples
        peaks = {
            "cpu_seconds": max(float(sample.get("cpu_seconds", 0)) for sample in samples),
            "memory_peak_bytes": max(int(sample.get("memory_peak_bytes", sample.get("memory_bytes", 0))) for sample in samples),
            "pids": max(int(sample.get("pids", 0)) for sample in samples),
        }
    return {key: peaks[key] for key in USAGE_KEYS if peaks.get(key) is not None}


def attempted_summary(outcome: Any) -> dict[str, Any]:
    """The run's record of what the code attempted, summed up: each kind's count and first few,
    whether the record is complete (sealed, nothing reached for it) and, if not, why. Self-reported."""
    record = (outcome.get("observations") or {}).get("attempted")
    if not isinstance(record, dict):
        return {}
    summary: dict[str, Any] = {
        "self_reported": True,
        "complete": bool(record.get("complete", False)),
        "counts": {kind: int(entry.get("count", 0)) for kind, entry in (record.get("events") or {}).items()},
        "first": {kind: list(entry.get("first", [])) for kind, entry in (record.get("events") or {}).items()},
    }
    if record.get("problem"):
        summary["problem"] = record["problem"]
    return summary
