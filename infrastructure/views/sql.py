"""The views' tables and statements, written once for SQLite and Postgres (docs/decisions/0021).

Statements use ``?`` placeholders and ``{x}`` for a table name and ``{greatest}`` for the larger of
two values (SQLite's scalar ``max``, Postgres's ``GREATEST``); each adapter fills them in and
passes a cursor. ``write_changes`` is the one place that turns ``ViewChange`` into SQL, so both
databases keep the same rows as the in-memory fake (application.views_memory).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from mai_safety.application.views import ExecutionFilter, ExecutionRow, PendingRow, ViewChange
from mai_safety.domain.supervision import CPU_WINDOW_S

ROW_COLUMNS = tuple(item.name for item in fields(ExecutionRow))
PENDING_COLUMNS = tuple(item.name for item in fields(PendingRow))
_JSON_COLUMNS = frozenset({"limits", "findings"})


@dataclass(frozen=True)
class Dialect:
    """How one database spells what differs: placeholders, tables, types, ``greatest``."""

    placeholder: str
    executions: str
    pending: str
    figures: str
    greatest: str
    integer: str
    real: str

    def sql(self, statement: str) -> str:
        return statement.format(
            x=self.executions, p=self.pending, f=self.figures, greatest=self.greatest
        ).replace("?", self.placeholder)

    def create_statements(self, position_index: str) -> list[str]:
        types = {
            "execution_id": "TEXT PRIMARY KEY", "position": f"{self.integer} NOT NULL", "duration_s": self.real,
            "peak_cpu_percent": self.real, "peak_memory_bytes": self.integer, "peak_pids": self.integer,
            "output_bytes": self.integer,
        }
        executions = ", ".join(f"{name} {types.get(name, 'TEXT')}" for name in ROW_COLUMNS)
        pending = ", ".join(f"{name} {types.get(name, 'TEXT')}" for name in PENDING_COLUMNS)
        return [
            # last_*: the previous sample, for the CPU share since it (the peak CPU).
            f"CREATE TABLE IF NOT EXISTS {self.executions} ({executions}, last_elapsed_s {self.real}, last_cpu_seconds {self.real})",
            f"CREATE INDEX IF NOT EXISTS {position_index} ON {self.executions} (position)",
            f"CREATE TABLE IF NOT EXISTS {self.pending} ({pending})",
            f"CREATE TABLE IF NOT EXISTS {self.figures} (day TEXT NOT NULL, figure TEXT NOT NULL, key TEXT NOT NULL, "
            f"count {self.integer} NOT NULL, PRIMARY KEY (day, figure, key))",
        ]


Execute = Callable[[str, Sequence[Any]], Any]


def write_changes(execute: Execute, dialect: Dialect, changes: Sequence[ViewChange]) -> None:
    """Each change in order, through ``execute`` (one cursor, one transaction: the caller's)."""
    for change in changes:
        _write_one(execute, dialect, change)


def _write_one(execute: Execute, dialect: Dialect, change: ViewChange) -> None:
    key = change.execution_id
    sql = dialect.sql
    if change.created is not None:
        values = [_stored(name, getattr(change.created, name)) for name in ROW_COLUMNS]
        execute(sql(f"INSERT INTO {{x}} ({', '.join(ROW_COLUMNS)}) VALUES ({', '.join('?' * len(values))})"), values)
    if change.updates:
        unknown = set(change.updates) - set(ROW_COLUMNS)
        if unknown:
            raise ValueError(f"no view column named {', '.join(sorted(unknown))}")
        assignments = ", ".join(f"{name} = ?" for name in change.updates)
        execute(
            sql(f"UPDATE {{x}} SET {assignments} WHERE execution_id = ?"),
            [*(_stored(name, value) for name, value in change.updates.items()), key],
        )
    if change.reading is not None:
        reading = change.reading
        if reading.cpu_percent is not None:  # the supervisor's own, over its windows
            execute(
                sql(
                    "UPDATE {x} SET peak_cpu_percent = CASE WHEN peak_cpu_percent IS NULL THEN ? "
                    "ELSE {greatest}(peak_cpu_percent, ?) END WHERE execution_id = ?"
                ),
                [reading.cpu_percent, reading.cpu_percent, key],
            )
        # CPU: a share only over a window of at least CPU_WINDOW_S since the reading that opened it
        # (last_elapsed_s, last_cpu_seconds), never from zero (views.Reading). Every SET reads the old row.
        closes = "? - last_elapsed_s >= ?"
        execute(
            sql(
                f"UPDATE {{x}} SET peak_cpu_percent = CASE WHEN last_elapsed_s IS NOT NULL AND {closes} THEN "
                "{greatest}(COALESCE(peak_cpu_percent, 0), (? - last_cpu_seconds) * 100.0 / (? - last_elapsed_s)) "
                "ELSE peak_cpu_percent END, "
                "peak_memory_bytes = {greatest}(COALESCE(peak_memory_bytes, 0), ?), "
                "peak_pids = {greatest}(COALESCE(peak_pids, 0), ?), "
                "output_bytes = {greatest}(COALESCE(output_bytes, 0), ?), "
                f"last_cpu_seconds = CASE WHEN last_elapsed_s IS NULL OR {closes} THEN ? ELSE last_cpu_seconds END, "
                f"last_elapsed_s = CASE WHEN last_elapsed_s IS NULL OR {closes} THEN ? ELSE last_elapsed_s END "
                "WHERE execution_id = ?"
            ),
            [
                reading.elapsed_s, CPU_WINDOW_S, reading.cpu_seconds, reading.elapsed_s,
                reading.memory_peak_bytes, reading.pids, reading.output_bytes,
                reading.elapsed_s, CPU_WINDOW_S, reading.cpu_seconds,
                reading.elapsed_s, CPU_WINDOW_S, reading.elapsed_s,
                key,
            ],
        )
    if change.terminated_on is not None:
        execute(
            sql("UPDATE {x} SET status = CASE WHEN started_at IS NULL THEN 'rejected' ELSE 'terminated' END WHERE execution_id = ?"),
            [key],
        )
        execute(
            sql(
                "INSERT INTO {f} AS figures (day, figure, key, count) SELECT ?, 'outcome', status, 1 FROM {x} "
                "WHERE execution_id = ? ON CONFLICT (day, figure, key) DO UPDATE SET count = figures.count + 1"
            ),
            [change.terminated_on, key],
        )
    for count in change.counts:
        execute(
            sql(
                "INSERT INTO {f} AS figures (day, figure, key, count) VALUES (?, ?, ?, 1) "
                "ON CONFLICT (day, figure, key) DO UPDATE SET count = figures.count + 1"
            ),
            [count.day, count.figure, count.key],
        )
    if change.pending is not None:
        waiting = change.pending
        execute(
            sql(
                "INSERT INTO {p} (execution_id, kind, level, reason, requested_at, answer_by, submitter, findings) "
                "SELECT execution_id, ?, level, ?, ?, ?, submitter, findings FROM {x} WHERE execution_id = ? "
                "ON CONFLICT (execution_id) DO NOTHING"
            ),
            [waiting.kind, waiting.reason, waiting.requested_at, waiting.answer_by, key],
        )
    if change.answered:
        execute(sql("DELETE FROM {p} WHERE execution_id = ?"), [key])


def _stored(name: str, value: Any) -> Any:
    return json.dumps(value) if name in _JSON_COLUMNS and value is not None else value


def _loaded(name: str, value: Any) -> Any:
    return json.loads(value) if name in _JSON_COLUMNS and value is not None else value


def execution_row(values: Sequence[Any]) -> ExecutionRow:
    row = {name: _loaded(name, value) for name, value in zip(ROW_COLUMNS, values)}
    for name in ("duration_s", "peak_cpu_percent"):
        row[name] = float(row[name]) if row[name] is not None else None
    return ExecutionRow(**row)


def pending_row(values: Sequence[Any]) -> PendingRow:
    return PendingRow(**{name: _loaded(name, value) for name, value in zip(PENDING_COLUMNS, values)})


def select_executions(dialect: Dialect, query: ExecutionFilter) -> tuple[str, list[Any]]:
    conditions, params = [], []
    for column, value in (("status", query.status), ("level", query.level), ("submitter", query.submitter), ("task_id", query.task_id)):
        if value is not None:
            conditions.append(f"{column} = ?")
            params.append(value)
    if query.since is not None:
        conditions.append("created_at >= ?")
        params.append(query.since)
    if query.until is not None:
        conditions.append("created_at < ?")
        params.append(query.until)
    where = f" WHERE {' AND '.join(conditions)}" if conditions else ""
    statement = f"SELECT {', '.join(ROW_COLUMNS)} FROM {{x}}{where} ORDER BY position DESC LIMIT ? OFFSET ?"
    return dialect.sql(statement), [*params, query.limit, (query.page - 1) * query.limit]


def select_pending(dialect: Dialect) -> str:
    return dialect.sql(f"SELECT {', '.join(PENDING_COLUMNS)} FROM {{p}} ORDER BY requested_at")


def select_counts(dialect: Dialect, since_day: str | None, until_day: str | None) -> tuple[str, list[Any]]:
    return (
        dialect.sql(
            "SELECT day, figure, key, count FROM {f} WHERE day >= ? AND day <= ? ORDER BY day, figure, key"
        ),
        [since_day or "0000-00-00", until_day or "9999-99-99"],
    )


def drop_statements(dialect: Dialect) -> list[str]:
    return [dialect.sql(f"DELETE FROM {table}") for table in ("{x}", "{p}", "{f}")]
