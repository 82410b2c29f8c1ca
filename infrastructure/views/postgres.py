"""The views on Postgres: eventsourcing's ``PostgresTrackingRecorder`` (table ``view_tracking``)
with the three view tables in the ledger's own database and schema, through the ledger's own
datastore. ``apply`` writes a page of changes and the tracking position in one transaction.

On a hardened ledger the service role may not create tables: ``audit init-postgres`` creates
these and grants the service role SELECT, INSERT, UPDATE, DELETE on them (never on the ledger's
own tables: ledger/infrastructure/hardening.py), and this recorder then only checks they exist.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import PersistenceError, Tracking
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier

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

TRACKING_TABLE = "view_tracking"
VIEW_TABLES = ("view_executions", "view_pending", "view_daily_figures")


def dialect_for(schema: str) -> Dialect:
    quoted = '"' + schema.replace('"', '""') + '"'
    return Dialect(
        placeholder="%s", executions=f"{quoted}.view_executions", pending=f"{quoted}.view_pending",
        figures=f"{quoted}.view_daily_figures", greatest="GREATEST", integer="bigint", real="double precision",
    )


def view_table_statements(schema: str) -> list[str]:
    """What creates the view tables (``audit init-postgres`` runs them as the owner)."""
    return dialect_for(schema).create_statements("view_executions_position")


class PostgresExecutionViews(PostgresTrackingRecorder, ExecutionViews):
    def __init__(self, datastore: PostgresDatastore) -> None:
        super().__init__(datastore, tracking_table_name=TRACKING_TABLE)
        self.dialect = dialect_for(datastore.schema)
        self.sql_create_statements += [SQL(statement).format() for statement in view_table_statements(datastore.schema)]

    def create_table(self) -> None:
        if self._tables_exist():
            return  # made already (perhaps by the owner, for a service role that may not create)
        try:
            super().create_table()
        except PersistenceError:
            # Servers starting together on an empty database all create the tables; all but one
            # fail once the first commits (Postgres's catalogue refuses the second type of the
            # same name), as the ledger's own tables do. The tables then exist.
            if not self._tables_exist():
                raise

    def _tables_exist(self) -> bool:
        names = [f"{self.datastore.schema}.{table}" for table in (*VIEW_TABLES, TRACKING_TABLE)]
        with self.datastore.get_connection() as connection, connection.cursor(row_factory=tuple_row) as cursor:
            cursor.execute("SELECT " + " AND ".join(["to_regclass(%s) IS NOT NULL"] * len(names)), names)
            row = cursor.fetchone()
            return bool(row and row[0])

    def apply(self, changes: Sequence[ViewChange], tracking: Tracking) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            # One round trip for the page's statements, not one each (rebuilds went 3,300 -> see 0021).
            with cursor.connection.pipeline():
                write_changes(lambda statement, params: cursor.execute(statement, params, prepare=True), self.dialect, changes)
            self._insert_tracking(cursor, tracking)

    def drop(self) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            for statement in drop_statements(self.dialect):
                cursor.execute(statement)
            cursor.execute(
                SQL("DELETE FROM {0}.{1} WHERE application_name = %s").format(*self._table_identifiers()), (LEDGER,)
            )

    def _table_identifiers(self) -> tuple[Identifier, Identifier]:
        return Identifier(self.datastore.schema), Identifier(self.tracking_table_name)

    def _read(self, statement: str, params: Sequence[Any] = ()) -> list[Any]:
        with self.datastore.get_connection() as connection, connection.cursor(row_factory=tuple_row) as cursor:
            cursor.execute(statement, params)
            return list(cursor.fetchall())

    def executions(self, query: ExecutionFilter) -> list[ExecutionRow]:
        return [execution_row(row) for row in self._read(*select_executions(self.dialect, query))]

    def pending(self) -> list[PendingRow]:
        return [pending_row(row) for row in self._read(select_pending(self.dialect))]

    def counts(self, since_day: str | None, until_day: str | None) -> list[tuple[str, str, str, int]]:
        return [(row[0], row[1], row[2], int(row[3])) for row in self._read(*select_counts(self.dialect, since_day, until_day))]
