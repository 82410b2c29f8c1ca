"""``InMemoryViews``: the views in dictionaries, for unit tests (it subclasses the port, so a
changed contract breaks it). It keeps the same rules as the database adapters: all of a batch
or nothing, and a position at or below the recorded one refused."""

from __future__ import annotations

import copy
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

from eventsourcing.persistence import IntegrityError, Tracking

from mai_safety.domain.supervision import CPU_WINDOW_S

from .views import ExecutionFilter, ExecutionRow, ExecutionViews, PendingRow, ViewChange


Number = TypeVar("Number", int, float)


class InMemoryViews(ExecutionViews):
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.rows: dict[str, ExecutionRow] = {}
        self.waiting: dict[str, PendingRow] = {}
        self.figures: Counter[tuple[str, str, str]] = Counter()
        self.last_cpu: dict[str, tuple[float, float]] = {}
        self.positions: dict[str, int] = {}

    def apply(self, changes: Sequence[ViewChange], tracking: Tracking) -> None:
        with self._lock:
            if tracking.notification_id <= self.positions.get(tracking.application_name, 0):
                raise IntegrityError(f"position {tracking.notification_id} is already applied")
            state = copy.deepcopy((self.rows, self.waiting, self.figures, self.last_cpu))
            rows, waiting, figures, last_cpu = state
            for change in changes:
                _apply_one(change, rows, waiting, figures, last_cpu)
            self.rows, self.waiting, self.figures, self.last_cpu = state
            self.positions[tracking.application_name] = tracking.notification_id

    def insert_tracking(self, tracking: Tracking) -> None:
        self.apply([], tracking)

    def max_tracking_id(self, application_name: str) -> int | None:
        return self.positions.get(application_name)

    def drop(self) -> None:
        with self._lock:
            self.rows, self.waiting, self.figures, self.last_cpu, self.positions = {}, {}, Counter(), {}, {}

    def executions(self, query: ExecutionFilter) -> list[ExecutionRow]:
        rows = [row for row in self.rows.values() if _matches(row, query)]
        rows.sort(key=lambda row: row.position, reverse=True)
        start = (query.page - 1) * query.limit
        return rows[start : start + query.limit]

    def pending(self) -> list[PendingRow]:
        return sorted(self.waiting.values(), key=lambda row: row.requested_at)

    def counts(self, since_day: str | None, until_day: str | None) -> list[tuple[str, str, str, int]]:
        return sorted(
            (day, figure, key, count)
            for (day, figure, key), count in self.figures.items()
            if (since_day is None or day >= since_day) and (until_day is None or day <= until_day)
        )


def _apply_one(
    change: ViewChange,
    rows: dict[str, ExecutionRow],
    waiting: dict[str, PendingRow],
    figures: Counter[tuple[str, str, str]],
    last_cpu: dict[str, tuple[float, float]],
) -> None:
    key = change.execution_id
    if change.created is not None:
        rows[key] = change.created
    row = rows.get(key)
    if row is not None and change.updates:
        row = rows[key] = replace(row, **change.updates)
    if row is not None and change.reading is not None:
        reading = change.reading
        opened = last_cpu.get(key)  # where the CPU window opened (views.Reading)
        cpu = reading.cpu_percent
        if opened is None or reading.elapsed_s - opened[0] >= CPU_WINDOW_S:
            if opened is not None:
                cpu = _higher(cpu, (reading.cpu_seconds - opened[1]) * 100.0 / (reading.elapsed_s - opened[0]))
            last_cpu[key] = (reading.elapsed_s, reading.cpu_seconds)
        row = rows[key] = replace(
            row,
            peak_cpu_percent=_higher(row.peak_cpu_percent, cpu),
            peak_memory_bytes=_higher(row.peak_memory_bytes, reading.memory_peak_bytes),
            peak_pids=_higher(row.peak_pids, reading.pids),
            output_bytes=_higher(row.output_bytes, reading.output_bytes),
        )
    if row is not None and change.terminated_on is not None:
        status = "terminated" if row.started_at is not None else "rejected"
        rows[key] = replace(row, status=status)
        figures[(change.terminated_on, "outcome", status)] += 1
    for count in change.counts:
        figures[(count.day, count.figure, count.key)] += 1
    if change.pending is not None and row is not None:
        waiting[key] = replace(change.pending, level=row.level, submitter=row.submitter, findings=list(row.findings))
    if change.answered:
        waiting.pop(key, None)


def _higher(current: Number | None, new: Number | None) -> Number | None:
    if new is None:
        return current
    return new if current is None else max(current, new)


def _matches(row: ExecutionRow, query: ExecutionFilter) -> bool:
    return (
        (query.status is None or row.status == query.status)
        and (query.level is None or row.level == query.level)
        and (query.since is None or row.created_at >= query.since)
        and (query.until is None or row.created_at < query.until)
        and (query.submitter is None or row.submitter == query.submitter)
        and (query.task_id is None or row.task_id == query.task_id)
    )
