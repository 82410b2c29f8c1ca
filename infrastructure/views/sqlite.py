"""The views on SQLite: eventsourcing's ``SQLiteTrackingRecorder`` with the three view tables
beside its ``tracking`` table, in the ledger's own file and through the ledger's own datastore
(one pool, one lock). ``apply`` writes a page of changes and the tracking position in one
``BEGIN IMMEDIATE`` transaction (docs/decisions/0021)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.sqlite import SQLiteCursor, SQLiteDatastore, SQLiteTrackingRecorder, SQLiteTransaction

from mai_safety.application.views import LEDGER, ExecutionFilter, ExecutionRow, ExecutionViews, PendingRow, ViewChange

from .sql import (
    Dialect,
    drop_statements,
    execution_row,
    pending_row,
    select_counts,
    select_executions,
    select_pending,
    write_changes,
)

DIALECT = Dialect(
    placeholder="?", executions="view_executions", pending="view_pending", figures="view_daily_figures",
    greatest="max", integer="INTEGER", real="REAL",
)


class _Immediate(SQLiteTransaction):
    """The library's transaction (and its error mapping), taking the write lock at BEGIN: a view
    write never fails to upgrade a read lock while the ledger appends."""

    def __enter__(self) -> SQLiteCursor:
        cursor = self.connection.cursor()
        cursor.execute("BEGIN IMMEDIATE")
        return cursor


class SQLiteExecutionViews(SQLiteTrackingRecorder, ExecutionViews):
    def __init__(self, datastore: SQLiteDatastore) -> None:
        super().__init__(datastore)

    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(), *DIALECT.create_statements("view_executions_position")]

    @contextmanager
    def _writing(self) -> Iterator[SQLiteCursor]:
        with self.datastore.get_connection(commit=True) as connection, _Immediate(connection, commit=True) as cursor:
            yield cursor

    def apply(self, changes: Sequence[ViewChange], tracking: Tracking) -> None:
        with self._writing() as cursor:
            write_changes(cursor.execute, DIALECT, changes)
            self._insert_tracking(cursor, tracking)

    def drop(self) -> None:
        with self._writing() as cursor:
            for statement in drop_statements(DIALECT):
                cursor.execute(statement)
            cursor.execute("DELETE FROM tracking WHERE application_name = ?", (LEDGER,))

    def _read(self, statement: str, params: Sequence[Any] = ()) -> list[Any]:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(statement, params)
            return list(cursor.fetchall())

    def executions(self, query: ExecutionFilter) -> list[ExecutionRow]:
        return [execution_row(tuple(row)) for row in self._read(*select_executions(DIALECT, query))]

    def pending(self) -> list[PendingRow]:
        return [pending_row(tuple(row)) for row in self._read(select_pending(DIALECT))]

    def counts(self, since_day: str | None, until_day: str | None) -> list[tuple[str, str, str, int]]:
        return [(row[0], row[1], row[2], int(row[3])) for row in self._read(*select_counts(DIALECT, since_day, until_day))]
