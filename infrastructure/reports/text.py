"""The audit report, the executions table and the waiting list as plain text for a terminal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mai_safety.application.audit_report import AuditReport, Percentiles
from mai_safety.application.views import ExecutionRow

from ..cli.terminal import visible_line


def executions_table(rows: list[ExecutionRow]) -> str:
    if not rows:
        return "no executions match"
    header = f"{'execution':36}  {'created (UTC)':19}  {'status':17}  {'level':7}  {'submitter':20}  {'task':12}  duration"
    lines = [header]
    for row in rows:
        duration = f"{row.duration_s:.2f} s" if row.duration_s is not None else "-"
        lines.append(
            f"{row.execution_id:36}  {row.created_at[:19]:19}  {row.status:17}  {row.level:7}  "
            f"{visible_line(row.submitter or '-')[:20]:20}  {visible_line(row.task_id or '-')[:12]:12}  {duration}"
        )
    return "\n".join(lines)


def pending_list(waiting: Sequence[Mapping[str, Any]]) -> str:
    if not waiting:
        return "nothing waits for an answer"
    lines = []
    for item in waiting:
        left = item["seconds_left"]
        time_left = "no deadline" if left is None else ("overdue" if left <= 0 else f"{_duration(left)} left")
        lines.append(
            f"{item['execution_id']}  {item['level']:7}  needs {item['kind']}  since {item['requested_at'][:19]}  "
            f"{time_left}  (submitted by {visible_line(item['submitter'] or '-')})"
        )
        for finding in item["findings"]:
            lines.append(f"    {finding['level']:7} {finding['analyzer']}/{finding['rule_id']}: {visible_line(finding['message'])[:100]}")
    return "\n".join(lines)


def report_text(report: AuditReport) -> str:
    anchor = report.ledger
    verified = {True: "audit verify passed", False: "AUDIT VERIFY FAILED", None: "not verified"}[anchor.verified]
    checkpoint = (
        f"checkpoint {anchor.checkpoint_sequence} at position {anchor.checkpoint_position}, sealed {anchor.checkpoint_sealed_at}"
        if anchor.checkpoint_sequence is not None
        else "no checkpoint yet"
    )
    lines = [
        f"audit report, {report.since or 'the beginning'} to {report.until or 'now'} (UTC days), made {report.generated_at[:19]}",
        f"ledger:      head at position {anchor.head_position}; {checkpoint}; {verified} ({anchor.verification_summary})",
        f"executions:  {report.executions}",
        f"by level:    {_pairs(report.by_level)}",
        f"by decision: {_pairs(report.by_decision)}",
        f"outcomes:    {_pairs(report.by_outcome)}",
        f"terminated:  {_pairs(report.terminations_by_reason)}",
        f"overrides:   {_pairs(report.overrides_by_actor)}",
        f"confirmed:   {_pairs(report.confirmations_by_actor)}",
        f"denied:      {_pairs(report.denials_by_actor)}",
        f"waiting now: {report.pending}" + (f", the oldest since {report.oldest_pending_since[:19]}" if report.oldest_pending_since else ""),
        "top findings:",
        *(f"  {item.count:6}  {item.analyzer}/{item.rule}" for item in report.top_findings),
        "resources (p50 / p95 / max over the runs):",
        *(f"  {name:18} {_percentiles(values)}" for name, values in report.resources.items()),
        "per day:",
        *(f"  {day.day}  {_pairs(day.by_level)}  |  {_pairs(day.by_outcome)}" for day in report.per_day),
    ]
    return "\n".join(lines)


def _pairs(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{visible_line(key)} {count}" for key, count in sorted(counts.items())) or "none"


def _percentiles(values: Percentiles) -> str:
    if values.max is None:
        return "no runs"
    return " / ".join(f"{value:.6g}" for value in (values.p50, values.p95, values.max) if value is not None)


def _duration(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{seconds:02d}s"
