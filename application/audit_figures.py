"""The audit report (application.audit_report) filled from the read models: the daily figures
summed over a period of whole UTC days, the resource percentiles over the runs that started in
it, what waits now, and the ledger anchor the caller verified (``anchor_from``)."""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import date, datetime, timedelta
from typing import Any

from .audit_report import AuditReport, DayFigures, FindingCount, LedgerAnchor, Percentiles, UsageAgainstLimit
from .reports import VerificationReport
from .views import ExecutionFilter, ExecutionRow, ExecutionViews

TOP_FINDINGS = 10
#: The most recent runs charted against their limits (the percentiles cover every run).
USAGE_ROWS = 1000
RESOURCES = ("duration_s", "peak_cpu_percent", "peak_memory_bytes", "peak_pids", "output_bytes")


def anchor_from(verification: VerificationReport) -> LedgerAnchor:
    newest: dict[str, Any] = verification.newest_checkpoint or {}
    problems = len(verification.problems)
    return LedgerAnchor(
        head_position=verification.head_position,
        checkpoint_sequence=newest.get("sequence"),
        checkpoint_position=newest.get("position"),
        checkpoint_sealed_at=newest.get("signed_at"),
        verified=verification.intact,
        verification_summary=(
            f"intact: {verification.checked} events, {verification.checkpoints} checkpoints checked"
            if verification.intact
            else f"NOT intact: {problems} problem{'s' if problems != 1 else ''}"
        ),
    )


def build_report(
    views: ExecutionViews, anchor: LedgerAnchor, since: date | None, until: date | None, now: datetime
) -> AuditReport:
    since_day, until_day = (since.isoformat() if since else None), (until.isoformat() if until else None)
    sums: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    days: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    for day, figure, key, count in views.counts(since_day, until_day):
        sums[figure][key] += count
        if figure in ("level", "outcome"):
            days[day][figure][key] += count
    start, end = period_bounds(since, until)
    rows = views.executions(ExecutionFilter(since=start, until=end, limit=1 << 62))
    ran = [row for row in rows if row.started_at is not None]
    waiting = views.pending()
    return AuditReport(
        since=since_day,
        until=until_day,
        generated_at=now.isoformat(),
        ledger=anchor,
        executions=sum(sums["level"].values()),
        by_level=dict(sums["level"]),
        by_decision=dict(sums["decision"]),
        by_outcome=dict(sums["outcome"]),
        terminations_by_reason=dict(sums["termination"]),
        per_day=[
            DayFigures(day, dict(figures["level"]), dict(figures["outcome"])) for day, figures in sorted(days.items())
        ],
        overrides_by_actor=dict(sums["override"]),
        confirmations_by_actor=dict(sums["confirmation"]),
        denials_by_actor=dict(sums["denial"]),
        top_findings=_top_findings(sums["finding"]),
        resources={name: percentiles([getattr(row, name) for row in ran]) for name in RESOURCES},
        usage_against_limits=[_usage(row) for row in ran[:USAGE_ROWS]],
        pending=len(waiting),
        oldest_pending_since=waiting[0].requested_at if waiting else None,
    )


def period_bounds(since: date | None, until: date | None) -> tuple[str | None, str | None]:
    """Whole UTC days as ISO 8601 bounds: from the first day's start to the day after the last."""
    return (since.isoformat() if since else None), ((until + timedelta(days=1)).isoformat() if until else None)


def percentiles(values: list[Any]) -> Percentiles:
    """Nearest-rank p50 and p95, and the maximum, of the values that are known."""
    known = sorted(float(value) for value in values if value is not None)
    if not known:
        return Percentiles()

    def rank(quantile: float) -> float:
        return known[max(0, math.ceil(quantile * len(known)) - 1)]

    return Percentiles(p50=rank(0.5), p95=rank(0.95), max=known[-1])


def _top_findings(counts: dict[str, int]) -> list[FindingCount]:
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:TOP_FINDINGS]
    return [FindingCount(key.partition("/")[0], key.partition("/")[2], count) for key, count in ranked]


def _usage(row: ExecutionRow) -> UsageAgainstLimit:
    limits: Any = row.limits or {}
    return UsageAgainstLimit(
        execution_id=row.execution_id,
        started_at=row.started_at or "",
        peak_memory_bytes=row.peak_memory_bytes,
        memory_limit_bytes=limits.get("memory_bytes"),
        peak_cpu_percent=row.peak_cpu_percent,
        cpus=limits.get("cpus"),
        duration_s=row.duration_s,
        timeout_s=limits.get("timeout_s"),
    )
