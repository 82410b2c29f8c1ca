"""The production ledger: eventsourcing's Postgres recorder with both chain hashes on every row
and signed checkpoints in a table beside the events.

Selected by ``PERSISTENCE_MODULE=mai_safety.infrastructure.ledger.postgres``. Appends go through the
library's ``insert_events`` (its pooled connection, pipelined transaction, retries and error
mapping) and its hook for the insert itself, ``_insert_stored_events``
(infrastructure/ledger/appending.py). Every insert takes the writers' lock first, through the
library's ``lock_table_statements``: a transaction-scoped advisory lock on the events table in
place of its ``LOCK TABLE ... IN EXCLUSIVE MODE``, which would need UPDATE or DELETE rights on the
table that the service's role does not have once the ledger is made append-only
(docs/decisions/0008). Then it reads the ledger head and the newest checkpoint, hashes the new
events after the head, inserts them and, when the sealer says one is due, a signed checkpoint:
all in one transaction. So thread or process, writers form one straight chain, and notification
ids follow commit order as the library requires.

Where the tables already exist (an operator's owner role made them: ``mai-safety audit
init-postgres``), nothing is created: the service's role may not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any
from uuid import UUID

import psycopg
from eventsourcing import postgres as es_postgres
from eventsourcing.persistence import InterfaceError, OperationalError, PersistenceError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg import Connection, Cursor
from psycopg.rows import DictRow, TupleRow, dict_row, tuple_row
from psycopg.sql import SQL, Composed, Identifier, Literal

from mai_safety.application.audit import SEAL
from mai_safety.application.errors import ConfigurationError
from mai_safety.application.open_sets import OpenExecutions, OpenSet, replay
from mai_safety.application.ports import Ledger, LedgerHead
from mai_safety.domain.chain import ChainRecord
from mai_safety.domain.checkpoint import Checkpoint

from .appending import ChainedAppends
from .blobs import blobs_table
from .chaining import (
    ADDED_COLUMNS,
    CHECKPOINT_COLUMNS,
    FetchRecords,
    advisory_lock_key,
    canonical_id,
    chain_batch,
    checkpoint_from_row,
    checkpoint_params,
    covers,
    guarded_seal,
    read_ahead,
    seal_own_head,
)
from .open_index import changes_of, kinds_table, open_index_tables, open_table

_NO_LIMIT = 1 << 62


class ChainedPostgresApplicationRecorder(ChainedAppends, PostgresApplicationRecorder, Ledger, OpenExecutions):
    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        if self.datastore.enable_db_functions:
            # The library's database function inserts the events without any hook: no chain.
            raise ConfigurationError("the ledger cannot insert through database functions: unset POSTGRES_ENABLE_DB_FUNCTIONS")
        self.checkpoints_table_name = f"{events_table_name}_checkpoints"
        self.check_identifier_length(self.checkpoints_table_name)
        self.blobs_table_name = blobs_table(events_table_name)
        self.check_identifier_length(self.blobs_table_name)
        self.open_table_name = open_table(events_table_name)
        self.kinds_table_name = kinds_table(events_table_name)
        self.check_identifier_length(self.kinds_table_name)
        names = {
            "schema": Identifier(self.datastore.schema),
            "table": Identifier(self.events_table_name),
            "checkpoints": Identifier(self.checkpoints_table_name),
            "blobs": Identifier(self.blobs_table_name),
            "open": Identifier(self.open_table_name),
            "kinds": Identifier(self.kinds_table_name),
        }
        self.sql_create_statements[self.create_table_statement_index] = SQL(
            "CREATE TABLE IF NOT EXISTS {schema}.{table} ("
            "originator_id {originator_id_type} NOT NULL, "
            "originator_version bigint NOT NULL, "
            "topic text, "
            "state bytea, "
            "notification_id bigserial, "
            "ledger_position bigint NOT NULL, "
            "event_hash bytea NOT NULL, "
            "ledger_hash bytea NOT NULL, "
            "event_mac bytea, "
            "PRIMARY KEY (originator_id, originator_version))"
        ).format(originator_id_type=Identifier(self.datastore.originator_id_type), **names)
        self.sql_create_statements.append(
            SQL(
                "CREATE UNIQUE INDEX IF NOT EXISTS {index} ON {schema}.{table} (ledger_position ASC)"
            ).format(index=Identifier(f"{self.events_table_name}_ledger_position_idx"), **names)
        )
        self.sql_create_statements.append(
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
        self.sql_create_statements.append(
            SQL("CREATE INDEX IF NOT EXISTS {index} ON {schema}.{checkpoints} (ledger_position)").format(
                index=Identifier(f"{self.checkpoints_table_name}_position_idx"), **names
            )
        )
        self._create_blobs = SQL(
            "CREATE TABLE IF NOT EXISTS {schema}.{blobs} (sha256 text PRIMARY KEY, size bigint NOT NULL, data bytea NOT NULL)"
        ).format(**names)
        self.sql_create_statements.append(self._create_blobs)
        # The index of open executions (docs/decisions/0019): not part of the record.
        self._create_open = [SQL(statement).format(**names) for statement in open_index_tables()]
        self.sql_create_statements += self._create_open
        self._open_insert = SQL(
            "INSERT INTO {schema}.{open} (kind, originator_id) VALUES (%s, %s) ON CONFLICT DO NOTHING"
        ).format(**names)
        self._open_delete = SQL("DELETE FROM {schema}.{open} WHERE originator_id = %s AND kind = ANY(%s)").format(
            **names
        )
        self._open_select = SQL(
            "SELECT EXISTS (SELECT 1 FROM {schema}.{kinds} WHERE kind = %s), "
            "ARRAY(SELECT originator_id FROM {schema}.{open} WHERE kind = %s)"
        ).format(**names)
        self._open_clear = SQL("DELETE FROM {schema}.{open} WHERE kind = %s").format(**names)
        self._kind_read = SQL("SELECT 1 FROM {schema}.{kinds} WHERE kind = %s").format(**names)
        self._kind_insert = SQL(
            "INSERT INTO {schema}.{kinds} (kind, read_through) "
            "SELECT %s, coalesce(max(ledger_position), 0) FROM {schema}.{table}"
        ).format(**names)
        self._select_set_events = SQL(
            "SELECT originator_id::text, topic FROM {schema}.{table} WHERE topic = ANY(%s) ORDER BY ledger_position"
        ).format(**names)
        self.qualified_open = f'"{self.datastore.schema}"."{self.open_table_name}"'
        self.qualified_events = f'"{self.datastore.schema}"."{self.events_table_name}"'
        self.qualified_blobs = f'"{self.datastore.schema}"."{self.blobs_table_name}"'
        self.qualified_checkpoints = f'"{self.datastore.schema}"."{self.checkpoints_table_name}"'
        checkpoint_columns = SQL(CHECKPOINT_COLUMNS)
        # The library's hook for the writers' lock (its ``_lock_table`` runs these, prepared): its
        # lock timeout, then the advisory lock in place of its table lock.
        self.lock_table_statements = [
            SQL("SET LOCAL lock_timeout = '{0}s'").format(self.datastore.lock_timeout),
            SQL("SELECT pg_advisory_xact_lock({0})").format(Literal(advisory_lock_key(self.qualified_events))),
        ]
        self._select_head = SQL(
            "SELECT h.ledger_position, h.ledger_hash, c.* FROM (SELECT 1) AS one "
            "LEFT JOIN LATERAL (SELECT ledger_position, ledger_hash FROM {schema}.{table} "
            "ORDER BY ledger_position DESC LIMIT 1) AS h ON true "
            "LEFT JOIN LATERAL (SELECT {columns} FROM {schema}.{checkpoints} "
            "ORDER BY sequence DESC LIMIT 1) AS c ON true"
        ).format(columns=checkpoint_columns, **names)
        self._select_writer_head = SQL(
            "SELECT h.ledger_position, h.ledger_hash, (SELECT max(sequence) FROM {schema}.{checkpoints}) "
            "FROM (SELECT 1) AS one LEFT JOIN LATERAL (SELECT ledger_position, ledger_hash FROM {schema}.{table} "
            "ORDER BY ledger_position DESC LIMIT 1) AS h ON true"
        ).format(**names)
        self._select_checkpoint = SQL("SELECT {columns} FROM {schema}.{checkpoints} WHERE sequence = %s").format(
            columns=checkpoint_columns, **names
        )
        self._select_previous = SQL(
            "SELECT event_hash FROM {schema}.{table} WHERE originator_id = %s AND originator_version = %s"
        ).format(**names)
        self._insert_chained_head = SQL(
            "INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state, "
            "ledger_position, event_hash, ledger_hash, event_mac) VALUES "
        ).format(**names)
        self._chained_values = SQL("(%s, %s, %s, %s, %s, %s, %s, %s)")
        self._insert_chained_returning = SQL(" RETURNING notification_id")
        self._insert_checkpoint = SQL("INSERT INTO {schema}.{checkpoints} ({columns}) VALUES ({values})").format(
            columns=checkpoint_columns, values=SQL(", ".join(["%s"] * len(CHECKPOINT_COLUMNS.split(",")))), **names
        )
        # The id as text, formatted by the server: the hashed form, with no UUID object to make per
        # row (verification reads every row; this and binary results make reading a third faster).
        record_columns = SQL(
            "ledger_position, originator_id::text, originator_version, topic, state, event_hash, ledger_hash, event_mac"
        )
        self._select_unsealed = SQL(
            "SELECT ledger_position, originator_id::text, originator_version, topic, NULL::bytea, event_hash, "
            "ledger_hash, event_mac FROM {schema}.{table} WHERE ledger_position > %s AND ledger_position <= %s "
            "ORDER BY ledger_position"
        ).format(**names)
        self._select_chain = SQL(
            "SELECT {columns} FROM {schema}.{table} WHERE ledger_position > %s AND ledger_position <= %s "
            "ORDER BY ledger_position LIMIT %s"
        ).format(columns=record_columns, **names)
        self._select_execution = SQL(
            "SELECT {columns} FROM {schema}.{table} WHERE originator_id = %s ORDER BY originator_version"
        ).format(columns=record_columns, **names)
        self._select_ledger_hash = SQL("SELECT ledger_hash FROM {schema}.{table} WHERE ledger_position = %s").format(
            **names
        )
        self._select_checkpoints = SQL(
            "SELECT {columns} FROM {schema}.{checkpoints} WHERE sequence > %s AND sequence <= %s "
            "AND ledger_position >= %s ORDER BY sequence LIMIT %s"
        ).format(columns=checkpoint_columns, **names)
        self._select_checkpoint_before = SQL(
            "SELECT {columns} FROM {schema}.{checkpoints} WHERE ledger_position < %s ORDER BY sequence DESC LIMIT 1"
        ).format(columns=checkpoint_columns, **names)
        self._select_checkpoint_covering = SQL(
            "SELECT {columns} FROM {schema}.{checkpoints} WHERE ledger_position >= %s ORDER BY sequence LIMIT 1"
        ).format(columns=checkpoint_columns, **names)
        self._select_same_signature = SQL(
            "SELECT sequence FROM {schema}.{checkpoints} WHERE signature = %s AND sequence <> %s ORDER BY sequence LIMIT 1"
        ).format(**names)

    # --- set-up --------------------------------------------------------------------------------

    def create_table(self) -> None:
        if self._tables_exist():
            # Made by the operator's owner role; the service's role may not create anything, but a
            # ledger made before event MACs needs their columns (added by the owner, or here where
            # this role owns the tables). So does a ledger made before output blobs, their table.
            self._add_missing_columns()
            self._add_missing_blobs_table()
            self._add_missing_open_index()
            return
        try:
            super().create_table()
        except PersistenceError:
            # Processes starting together on an empty database all try to create the tables (one
            # transaction each); all but one fail once the first commits. The tables then exist.
            if not self._tables_exist():
                raise

    def _add_missing_columns(self) -> None:
        with self.datastore.get_connection() as connection, connection.cursor(row_factory=tuple_row) as cursor:
            cursor.execute(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = %s "
                "AND table_name IN (%s, %s)",
                (self.datastore.schema, self.events_table_name, self.checkpoints_table_name),
            )
            present = {(str(row[0]), str(row[1])) for row in cursor.fetchall()}
            missing = [
                (f"{self.events_table_name}{suffix}", column, pg_type)
                for suffix, column, _, pg_type in ADDED_COLUMNS
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
                    "the ledger's tables were made before event MACs and this role may not add their columns: "
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

    def location(self) -> str:
        options = getattr(self.datastore.pool, "kwargs", None) or {}
        where = f"{options.get('host', '?')}:{options.get('port', '?')}/{options.get('dbname', '?')}"
        return f"postgres {where} {self.datastore.schema}.{self.events_table_name}"

    def _tables_exist(self) -> bool:
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

    # --- writing -------------------------------------------------------------------------------

    def _lock_and_read_head(self, connection: Connection[Any]) -> tuple[tuple[int, bytes] | None, Checkpoint | None]:
        """The writers' lock (the library's ``_lock_table``), then the head: in pipeline mode they
        go out in one round trip."""
        self._lock_table(connection.cursor(row_factory=dict_row))
        return self._read_writer_head(connection)

    def _read_writer_head(self, connection: Connection[Any]) -> tuple[tuple[int, bytes] | None, Checkpoint | None]:
        cursor = connection.cursor(row_factory=tuple_row)
        cursor.execute(self._select_writer_head, prepare=True)
        row = cursor.fetchone()
        assert row is not None
        head = (int(row[0]), bytes(row[1])) if row[0] is not None else None

        def read(sequence: int) -> Checkpoint | None:
            found = connection.cursor(row_factory=tuple_row)
            found.execute(self._select_checkpoint, (sequence,), prepare=True)
            checkpoint = found.fetchone()
            return checkpoint_from_row(checkpoint) if checkpoint is not None else None

        # The newest checkpoint is read in full only when this process does not know it already.
        return head, self._newest.get(row[2], read)

    def _read_head(self, cursor: Cursor[Any]) -> tuple[tuple[int, bytes] | None, Checkpoint | None]:
        """The head and the newest checkpoint as the database holds them, in one statement."""
        cursor.execute(self._select_head, prepare=True)
        row = cursor.fetchone()
        assert row is not None
        head = (int(row[0]), bytes(row[1])) if row[0] is not None else None
        checkpoint = checkpoint_from_row(row[2:]) if row[2] is not None else None
        return head, checkpoint

    def _previous(self, connection: Connection[Any]) -> Callable[[str, int], bytes | None]:
        def previous(execution_id: str, version: int) -> bytes | None:
            known = self._written.get(execution_id, version)
            if known is not None:
                return known
            cursor = connection.cursor(row_factory=tuple_row)
            cursor.execute(self._select_previous, (self._column_id(execution_id), version), prepare=True)
            found = cursor.fetchone()
            return bytes(found[0]) if found else None

        return previous

    def _insert_stored_events(self, curs: Cursor[DictRow], stored_events: Sequence[StoredEvent], **kwargs: Any) -> None:
        """The library's hook for the insert, in its pipelined transaction: the writers' lock and
        the notification as the library takes them, the head read (one round trip), then the
        events chained after it with their MACs, the index of open executions and, when due, a
        checkpoint (a second, with the commit). The events go last, on the library's cursor, so
        that it fetches their notification ids as it does its own."""
        appended = self.appended(kwargs)
        self._lock_table(curs)
        self._notify_channel(curs)
        connection = curs.connection
        head, last_checkpoint = self._read_writer_head(connection)
        rows = chain_batch(stored_events, head, self._previous(connection))
        for originator, enters, leaves in changes_of(rows):
            for kind in enters:
                connection.execute(self._open_insert, (kind, originator), prepare=True)
            if leaves:  # one statement for every set an ending closes
                connection.execute(self._open_delete, (originator, list(leaves)), prepare=True)
        checkpoint, through = self._seal_due(
            last_checkpoint, head, rows, self._fetch_unsealed(connection), execution_ended=bool(kwargs.get(SEAL))
        )
        if checkpoint is not None:
            connection.execute(self._insert_checkpoint, checkpoint_params(checkpoint), prepare=True)
        key = self._sealer.event_mac() if self._sealer is not None else None
        values = [
            value
            for chained in rows
            for value in (
                chained.stored.originator_id,
                chained.stored.originator_version,
                chained.stored.topic,
                chained.stored.state,
                chained.position,
                chained.event_hash,
                chained.ledger_hash,
                chained.mac(key),
            )
        ]
        statement = self._insert_chained_head + SQL(", ").join([self._chained_values] * len(rows))
        curs.execute(statement + self._insert_chained_returning, values, prepare=True)
        appended.note(rows, head, checkpoint, through)

    def _fetch_unsealed(self, connection: Connection[Any]) -> FetchRecords:
        def fetch(after: int, up_to: int) -> list[ChainRecord]:
            cursor = connection.cursor(row_factory=tuple_row, binary=True)
            cursor.execute(self._select_unsealed, (after, up_to), prepare=True)
            return [ChainRecord._make(row) for row in cursor.fetchall()]

        return fetch

    @retry((InterfaceError, OperationalError), max_attempts=3, wait=0.2)
    def seal(self, reason: str) -> Checkpoint | None:
        with self.datastore.get_connection() as connection:
            with connection.pipeline(), connection.transaction():
                head, last_checkpoint = self._lock_and_read_head(connection)
                checkpoint, through = None, None
                if head is not None and self._sealer is not None:
                    checkpoint, through = guarded_seal(
                        self._sealer, self._verified, last_checkpoint, head, self._fetch_unsealed(connection), force=reason
                    )
                if checkpoint is not None:
                    connection.execute(self._insert_checkpoint, checkpoint_params(checkpoint), prepare=True)
        self._verified.raise_to(through)
        self._committed(checkpoint)
        return checkpoint or last_checkpoint

    @retry((InterfaceError, OperationalError), max_attempts=3, wait=0.2)
    def seal_written(self, reason: str, *, through: int | None = None) -> Checkpoint | None:
        own = self._own.get()
        if own is None or self._sealer is None:
            return None
        if covers(self._newest.position, through):
            return None  # a checkpoint this process wrote or read covers it already
        with self.datastore.get_connection() as connection:
            with connection.pipeline(), connection.transaction():
                _, last_checkpoint = self._lock_and_read_head(connection)
                checkpoint, verified = seal_own_head(
                    self._sealer, self._verified, last_checkpoint, own, reason, through, self._fetch_unsealed(connection)
                )
                if checkpoint is not None:
                    connection.execute(self._insert_checkpoint, checkpoint_params(checkpoint), prepare=True)
        self._verified.raise_to(verified)
        self._committed(checkpoint)
        return checkpoint

    # --- the index of open executions --------------------------------------------------------

    def open_ids(self, open_set: OpenSet) -> list[str]:
        # The mark and the rows in one snapshot. No mark: never read through, or the unlogged
        # tables were emptied by a crash of the database (or someone): read through, then again.
        for _ in range(2):
            ((read, members),) = self._fetch(self._open_select, (open_set.kind, open_set.kind))
            if read:
                break
            self._read_through(open_set)
        return [str(member) for member in members]

    @retry((InterfaceError, OperationalError), max_attempts=3, wait=0.2)
    def _read_through(self, open_set: OpenSet) -> None:
        """Replace the set's rows by what the events say, once per ledger, under the writers' lock."""
        with self.datastore.get_connection() as connection, connection.transaction():
            self._lock_table(connection.cursor(row_factory=dict_row))
            cursor = connection.cursor(row_factory=tuple_row)
            cursor.execute(self._kind_read, (open_set.kind,))
            if cursor.fetchone() is None:
                cursor.execute(self._select_set_events, (list(open_set.topics),))
                members = replay(open_set, ((str(row[0]), str(row[1])) for row in cursor.fetchall()))
                cursor.execute(self._open_clear, (open_set.kind,))
                cursor.executemany(self._open_insert, [(open_set.kind, member) for member in sorted(members)])
                cursor.execute(self._kind_insert, (open_set.kind,))

    # --- reading -------------------------------------------------------------------------------

    def _fetch(self, statement: SQL | Any, params: Sequence[Any]) -> list[TupleRow]:
        # Binary results: bytea arrives as bytes rather than hex text to decode (a third faster
        # to read the whole ledger).
        with self.datastore.get_connection() as connection, connection.cursor(row_factory=tuple_row, binary=True) as cursor:
            cursor.execute(statement, params, prepare=True)
            return cursor.fetchall()

    def head(self) -> LedgerHead:
        with self.datastore.get_connection() as connection, connection.cursor(row_factory=tuple_row) as cursor:
            head, checkpoint = self._read_head(cursor)  # one statement: one snapshot
        position, digest = head if head is not None else (0, bytes(32))
        return LedgerHead(position, digest, checkpoint)

    def select_chain(self, after_position: int, limit: int, up_to: int | None = None) -> list[ChainRecord]:
        rows = self._fetch(self._select_chain, (after_position, _NO_LIMIT if up_to is None else up_to, limit))
        return [ChainRecord._make(row) for row in rows]

    def iter_chain(self, after_position: int = 0, up_to: int | None = None, page: int = 5000) -> Iterator[ChainRecord]:
        """Every record after ``after_position``, the next page read while this one is checked."""
        return read_ahead(lambda after: self.select_chain(after, page, up_to), after_position, page)

    def select_execution(self, originator_id: str) -> list[ChainRecord]:
        return [ChainRecord._make(row) for row in self._fetch(self._select_execution, (self._column_id(originator_id),))]

    def event_hash_of(self, originator_id: str, version: int) -> bytes | None:
        rows = self._fetch(self._select_previous, (self._column_id(originator_id), version))
        return bytes(rows[0][0]) if rows else None

    def ledger_hash_at(self, position: int) -> bytes | None:
        rows = self._fetch(self._select_ledger_hash, (position,))
        return bytes(rows[0][0]) if rows else None

    def select_checkpoints(
        self, after_sequence: int, limit: int, *, from_position: int = 0, up_to_sequence: int | None = None
    ) -> list[Checkpoint]:
        upper = _NO_LIMIT if up_to_sequence is None else up_to_sequence
        rows = self._fetch(self._select_checkpoints, (after_sequence, upper, from_position, limit))
        return [checkpoint_from_row(row) for row in rows]

    def checkpoint_before(self, position: int) -> Checkpoint | None:
        rows = self._fetch(self._select_checkpoint_before, (position,))
        return checkpoint_from_row(rows[0]) if rows else None

    def checkpoint_covering(self, position: int) -> Checkpoint | None:
        rows = self._fetch(self._select_checkpoint_covering, (position,))
        return checkpoint_from_row(rows[0]) if rows else None

    def checkpoint_with_signature(self, signature: bytes, other_than: int) -> int | None:
        rows = self._fetch(self._select_same_signature, (signature, other_than))
        return int(rows[0][0]) if rows else None

    def _column_id(self, originator_id: str) -> UUID | str:
        return UUID(originator_id) if self.datastore.originator_id_type == "uuid" else originator_id


class Factory(es_postgres.PostgresFactory):  # the module must hold exactly one factory class
    application_recorder_class = ChainedPostgresApplicationRecorder


__all__ = ["ChainedPostgresApplicationRecorder", "Factory", "canonical_id"]
