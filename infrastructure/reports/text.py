"""The audit report, the executions table and the waiting list as plain text for a terminal.

They read plain data (``ExecutionRow.to_dict()``, ``AuditReport.to_dict()``, the pending list),
which is also what the service answers with, so the local CLI and the thin client print the same
text from the same shape; and importing this module imports nothing of the application's (no
ledger, no eventsourcing), which a client process started for one call must not pay for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cli.terminal import visible_line


def executions_table(rows: Sequence[Mapping[str, Any]]) -> str:
    if not rows:
        return "no executions match"
    header = f"{'execution':36}  {'created (UTC)':19}  {'status':17}  {'level':7}  {'submitter':20}  {'task':12}  duration"
    lines = [header]
    for row in rows:
        duration = f"{row['duration_s']:.2f} s" if row.get("duration_s") is not None else "-"
        lines.append(
            f"{row['execution_id']:36}  {row['created_at'][:19]:19}  {row['status']:17}  {row['level']:7}  "
            f"{visible_line(row.get('submitter') or '-')[:20]:20}  {visible_line(row.get('task_id') or '-')[:12]:12}  {duration}"
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


def report_text(report: Mapping[str, Any]) -> str:
    anchor = report["ledger"]
    verified = {True: "audit verify passed", False: "AUDIT VERIFY FAILED", None: "not verified"}[anchor.get("verified")]
    checkpoint = (
        f"checkpoint {anchor['checkpoint_sequence']} at position {anchor['checkpoint_position']}, sealed {anchor['checkpoint_sealed_at']}"
        if anchor.get("checkpoint_sequence") is not None
        else "no checkpoint yet"
    )
    oldest = report.get("oldest_pending_since")
    lines = [
        f"audit report, {report.get('since') or 'the beginning'} to {report.get('until') or 'now'} (UTC days), made {report['generated_at'][:19]}",
        f"ledger:      head at position {anchor['head_position']}; {checkpoint}; {verified} ({anchor.get('verification_summary', '')})",
        f"executions:  {report.get('executions', 0)}",
        f"by level:    {_pairs(report.get('by_level'))}",
        f"by decision: {_pairs(report.get('by_decision'))}",
        f"outcomes:    {_pairs(report.get('by_outcome'))}",
        f"terminated:  {_pairs(report.get('terminations_by_reason'))}",
        f"overrides:   {_pairs(report.get('overrides_by_actor'))}",
        f"confirmed:   {_pairs(report.get('confirmations_by_actor'))}",
        f"denied:      {_pairs(report.get('denials_by_actor'))}",
        f"waiting now: {report.get('pending', 0)}" + (f", the oldest since {oldest[:19]}" if oldest else ""),
        "top findings:",
        *(f"  {item['count']:6}  {item['analyzer']}/{item['rule']}" for item in report.get("top_findings") or []),
        "resources (p50 / p95 / max over the runs):",
        *(f"  {name:18} {_percentiles(values)}" for name, values in (report.get("resources") or {}).items()),
        "per day:",
        *(f"  {day['day']}  {_pairs(day.get('by_level'))}  |  {_pairs(day.get('by_outcome'))}" for day in report.get("per_day") or []),
        "",
        "diverged (seen doing what their level did not predict, decision 0044):",
        diverged_table(report.get("diverged") or []),
    ]
    return "\n".join(lines)


def diverged_table(rows: list[dict[str, Any]]) -> str:
    """One line per diverged execution, then its divergences; what they quote came from the code."""
    if not rows:
        return "no execution was seen doing what its level did not predict"
    lines = []
    for row in rows:
        lines.append(f"{row['execution_id']}  {row['recorded_at']}  rated {row['level']}  code sha256:{row['code_sha256'][:12]}")
        lines.extend(visible_line(f"    {item['effect']}: {item['detail']}") for item in row["divergences"])
    return "\n".join(lines)


def _pairs(counts: Mapping[str, int] | None) -> str:
    return ", ".join(f"{visible_line(key)} {count}" for key, count in sorted((counts or {}).items())) or "none"


def _percentiles(values: Mapping[str, float | None]) -> str:
    if values.get("max") is None:
        return "no runs"
    return " / ".join(f"{value:.6g}" for value in (values.get("p50"), values.get("p95"), values.get("max")) if value is not None)


def _duration(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{seconds:02d}s"
