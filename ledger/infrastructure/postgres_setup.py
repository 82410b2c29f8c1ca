"""How the Postgres ledger's tables are made, completed and inspected: the events table with both
chain hashes, the checkpoints, the output blobs and the open-executions index; made by the
library's ``create_table`` where this role may, completed where a ledger from before lacks a
column or a table, and the database's own protection reported. A part postgres.py's recorder holds."""

from __future__ import annotations

from typing import Any

import psycopg
from eventsourcing.postgres import PostgresDatastore
from psycopg import Cursor
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Composed, Identifier

from mai_safety.application.errors import ConfigurationError

from .chaining import ADDED_COLUMNS
from .blobs import blobs_table
from .open_index import INDEX_COLUMNS, leases_table, leases_tables, open_index_tables, open_table


class PostgresTables:
    """The recorder's tables beyond the library's: the statements that make them (added to the
    library's ``sql_create_statements``), what completes a ledger made by an earlier version, and
    the database's protection. ``names``: the schema and tables as SQL identifiers (postgres.py)."""

    def __init__(self, datastore: PostgresDatastore, names: dict[str, Identifier], events_table_name: str) -> None:
        self.datastore = datastore
        self.events_table_name = events_table_name
        self.checkpoints_table_name = f"{events_table_name}_checkpoints"
        self.open_table_name = open_table(events_table_name)
        schema = datastore.schema
        self.qualified_events = f'"{schema}"."{events_table_name}"'
        self.qualified_checkpoints = f'"{schema}"."{self.checkpoints_table_name}"'
        self.qualified_blobs = f'"{schema}"."{blobs_table(events_table_name)}"'
        self.qualified_open = f'"{schema}"."{self.open_table_name}"'
        self.qualified_leases = f'"{schema}"."{leases_table(events_table_name)}"'
        self._names = names
        self._create_blobs = SQL(
            "CREATE TABLE IF NOT EXISTS {schema}.{blobs} (sha256 text PRIMARY KEY, size bigint NOT NULL, data bytea NOT NULL)"
        ).format(**names)
        # The index of open executions (docs/decisions/0019): not part of the record.
        self._create_open = [SQL(statement).format(**names) for statement in open_index_tables()]
        # The servers' leases (application/abandoned.py): not part of the record either.
        self._create_leases = [SQL(statement).format(**names) for statement in leases_tables()]

    def add_to(self, sql_create_statements: list[Composed], create_table_statement_index: int) -> None:
        """Ours, added to the library's statements (the list it runs in ``create_table``)."""
        names = self._names
        # The library's own events table (its statement, kept), then the chain's columns. IF NOT
        # EXISTS: processes starting together on an empty database may both get this far.
        sql_create_statements.insert(
            create_table_statement_index + 1,
            SQL(
                "ALTER TABLE {schema}.{table} ADD COLUMN IF NOT EXISTS ledger_position bigint NOT NULL, "
                "ADD COLUMN IF NOT EXISTS event_hash bytea NOT NULL, ADD COLUMN IF NOT EXISTS ledger_hash bytea NOT NULL, "
                "ADD COLUMN IF NOT EXISTS event_mac bytea"
            ).format(**names),
        )
        sql_create_statements.append(
            SQL(
                "CREATE UNIQUE INDEX IF NOT EXISTS {index} ON {schema}.{table} (ledger_position ASC)"
            ).format(index=Identifier(f"{self.events_table_name}_ledger_position_idx"), **names)
        )
        sql_create_statements.append(
            SQL(
                "CREATE TABLE IF NOT EXISTS {schema}.{checkpoints} ("
                "sequence bigint PRIMARY KEY, "
                "ledger_position bigint NOT NULL, "
                "ledger_hash bytea NOT NULL, "
                "signed_at text NOT NULL, "
                "reason text NOT NULL, "
                "key_id text NOT NULL, "
                "previous bytea NOT NULL, "
                "signature bytea NOT NULL, "
                "format_version integer NOT NULL DEFAULT 1, "
                "macs_from bigint)"
            ).format(**names)
        )
        sql_create_statements.append(
            SQL("CREATE INDEX IF NOT EXISTS {index} ON {schema}.{checkpoints} (ledger_position)").format(
                index=Identifier(f"{self.checkpoints_table_name}_position_idx"), **names
            )
        )
        sql_create_statements += [self._create_blobs, *self._create_open, *self._create_leases]

    def complete(self) -> None:
        """Made by the operator's owner role; the service's role may not create anything, but a
        ledger made before event MACs needs their columns (added by the owner, or here where this
        role owns the tables). So does a ledger made before output blobs, their table."""
        self._add_missing_blobs_table()
        self._add_missing_open_index()
        self._add_missing(self.qualified_leases, self._create_leases, "the servers' leases", "their table")
        self._add_missing_columns()

    def _add_missing_columns(self) -> None:
        with self.datastore.get_connection() as connection, connection.cursor(row_factory=tuple_row) as cursor:
            cursor.execute(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = %s "
                "AND table_name IN (%s, %s, %s)",
                (self.datastore.schema, self.events_table_name, self.checkpoints_table_name, self.open_table_name),
            )
            present = {(str(row[0]), str(row[1])) for row in cursor.fetchall()}
            missing = [
                (f"{self.events_table_name}{suffix}", column, pg_type)
                for suffix, column, _, pg_type in (*ADDED_COLUMNS, *INDEX_COLUMNS)
                if (f"{self.events_table_name}{suffix}", column) not in present
            ]
            if not missing:
                return
            try:
                with connection.transaction():
                    for table, column, pg_type in missing:
                        cursor.execute(
                            SQL("ALTER TABLE {schema}.{table} ADD COLUMN IF NOT EXISTS {column} " + pg_type).format(
                                schema=Identifier(self.datastore.schema), table=Identifier(table), column=Identifier(column)
                            )
                        )
            except psycopg.errors.InsufficientPrivilege:
                raise ConfigurationError(
                    f"the ledger's tables lack {', '.join(column for _, column, _ in missing)} and this role may not add them: "
                    "run `mai-safety audit init-postgres --owner-url … --service-role …` as the owner once"
                ) from None

    def _add_missing_blobs_table(self) -> None:
        self._add_missing(self.qualified_blobs, [self._create_blobs], "output blobs", "their table")

    def _add_missing_open_index(self) -> None:
        self._add_missing(self.qualified_open, self._create_open, "the index of open executions", "it")

    def _add_missing(self, qualified: str, statements: list[Composed], made_before: str, what: str) -> None:
        """Create what a ledger made before ``made_before`` lacks, where this role may."""
        with self.datastore.get_connection() as connection, connection.cursor(row_factory=tuple_row) as cursor:
            if self._exists(cursor, qualified):
                return
            try:
                with connection.transaction():
                    for statement in statements:
                        cursor.execute(statement)
            except psycopg.errors.InsufficientPrivilege:
                raise ConfigurationError(
                    f"the ledger's tables were made before {made_before} and this role may not create {what}: "
                    "run `mai-safety audit init-postgres --owner-url … --service-role …` as the owner once"
                ) from None
            except psycopg.Error:
                if not self._exists(cursor, qualified):  # else another process made it meanwhile
                    raise

    @staticmethod
    def _exists(cursor: Cursor[Any], qualified: str) -> bool:
        cursor.execute("SELECT to_regclass(%s) IS NOT NULL", (qualified,))
        row = cursor.fetchone()
        return bool(row and row[0])

    def exist(self) -> bool:
        with self.datastore.get_connection() as connection, connection.cursor(row_factory=tuple_row) as cursor:
            cursor.execute(
                "SELECT to_regclass(%s) IS NOT NULL AND to_regclass(%s) IS NOT NULL",
                (self.qualified_events, self.qualified_checkpoints),
            )
            row = cursor.fetchone()
            return bool(row and row[0])

    def protection(self) -> dict[str, Any]:
        """Whether the database itself refuses changes (docs/decisions/0008): the triggers on the
        events, checkpoints and output blobs tables, and this role's rights on events and blobs."""
        tables = (self.qualified_events, self.qualified_checkpoints, self.qualified_blobs)
        with self.datastore.get_connection() as connection, connection.cursor(row_factory=tuple_row) as cursor:
            cursor.execute(
                "SELECT "
                "(SELECT count(*) FROM pg_trigger WHERE tgrelid IN (to_regclass(%s), to_regclass(%s), to_regclass(%s)) "
                "AND tgname LIKE '%%append_only' AND tgenabled <> 'D'), "
                "has_table_privilege(%s, 'UPDATE') OR has_table_privilege(%s, 'DELETE') "
                "OR has_table_privilege(%s, 'TRUNCATE') OR has_table_privilege(%s, 'UPDATE') "
                "OR has_table_privilege(%s, 'DELETE') OR has_table_privilege(%s, 'TRUNCATE'), current_user",
                (*tables, *([self.qualified_events] * 3), *([self.qualified_blobs] * 3)),
            )
            row = cursor.fetchone()
        assert row is not None
        return {"append_only_triggers": row[0] == len(tables), "role_may_change_events": bool(row[1]), "role": row[2]}
