"""The production ledger: eventsourcing's Postgres recorder with both chain hashes on every row
and signed checkpoints in a table beside the events.

Selected by ``PERSISTENCE_MODULE=mai_safety.ledger.infrastructure.postgres``. Appends go through the
library's ``insert_events`` (its pooled connection, pipelined transaction, retries and error
mapping) and its hook for the insert itself, ``_insert_stored_events``
(ledger/infrastructure/appending.py). Every insert takes the writers' lock first, through the
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

from collections.abc import Callable, Sequence
from typing import Any

from eventsourcing import postgres as es_postgres
from eventsourcing.persistence import InterfaceError, OperationalError, PersistenceError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg import Connection, Cursor
from psycopg.rows import DictRow, dict_row, tuple_row
from psycopg.sql import SQL, Identifier, Literal

from mai_safety.application.errors import ConfigurationError
from mai_safety.application.abandoned import Leases
from mai_safety.application.open_sets import OpenExecutions
from mai_safety.ledger.application.ports import Ledger, Sealer, WorkLock
from mai_safety.ledger.domain.chain import ChainRecord
from mai_safety.ledger.domain.checkpoint import Checkpoint

from .appending import ChainedAppends
from . import factory
from .blobs import PostgresBlobStore, blobs_table
from .answer_watch import ANSWER_SETTING, ANSWER_WITHIN_S
from .breaker import guard
from .chaining import (
    CHECKPOINT_COLUMNS,
    FetchRecords,
    advisory_lock_key,
    canonical_id,
    chain_batch,
    checkpoint_from_row,
    checkpoint_params,
    covers,
    guarded_seal,
    seal_own_head,
)
from .open_index import kinds_table, leases_table, open_table
from .parts import AnsweredBy
from .postgres_index import PostgresLeases, PostgresOpenIndex
from .postgres_reading import PostgresLedgerReads
from .postgres_setup import PostgresTables
from .work_lock import PostgresWorkLock


class WriterStatements:
    """What the recorder's writer runs (prepared): the head and checkpoint it reads, the rows it inserts."""

    def __init__(self, names: dict[str, Identifier]) -> None:
        checkpoint_columns = SQL(CHECKPOINT_COLUMNS)
        self.select_writer_head = SQL(
            "SELECT h.ledger_position, h.ledger_hash, (SELECT max(sequence) FROM {schema}.{checkpoints}) "
            "FROM (SELECT 1) AS one LEFT JOIN LATERAL (SELECT ledger_position, ledger_hash FROM {schema}.{table} "
            "ORDER BY ledger_position DESC LIMIT 1) AS h ON true"
        ).format(**names)
        self.select_checkpoint = SQL("SELECT {columns} FROM {schema}.{checkpoints} WHERE sequence = %s").format(
            columns=checkpoint_columns, **names
        )
        self.select_previous = SQL(
            "SELECT event_hash FROM {schema}.{table} WHERE originator_id = %s AND originator_version = %s"
        ).format(**names)
        self.insert_chained_head = SQL(
            "INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state, "
            "ledger_position, event_hash, ledger_hash, event_mac) VALUES "
        ).format(**names)
        self.chained_values = SQL("(%s, %s, %s, %s, %s, %s, %s, %s)")
        self.insert_chained_returning = SQL(" RETURNING notification_id")
        self.insert_checkpoint = SQL("INSERT INTO {schema}.{checkpoints} ({columns}) VALUES ({values})").format(
            columns=checkpoint_columns, values=SQL(", ".join(["%s"] * len(CHECKPOINT_COLUMNS.split(",")))), **names
        )
        # The id as text, formatted by the server (see postgres_reading.py).
        self.select_unsealed = SQL(
            "SELECT ledger_position, originator_id::text, originator_version, topic, NULL::bytea, event_hash, "
            "ledger_hash, event_mac FROM {schema}.{table} WHERE ledger_position > %s AND ledger_position <= %s "
            "ORDER BY ledger_position"
        ).format(**names)


class ChainedPostgresApplicationRecorder(ChainedAppends, PostgresApplicationRecorder, Ledger, OpenExecutions, Leases):
    """The library's recorder, appending the chain through its hooks (appending.py); the ports'
    other questions are answered by the parts it holds (parts.py)."""

    head = AnsweredBy("reads")
    select_chain = AnsweredBy("reads")
    iter_chain = AnsweredBy("reads")
    select_execution = AnsweredBy("reads")
    event_hash_of = AnsweredBy("reads")
    ledger_hash_at = AnsweredBy("reads")
    select_checkpoints = AnsweredBy("reads")
    checkpoint_before = AnsweredBy("reads")
    checkpoint_covering = AnsweredBy("reads")
    checkpoint_with_signature = AnsweredBy("reads")
    protection = AnsweredBy("tables")
    open_ids = AnsweredBy("open_index")
    open_holders = AnsweredBy("open_index")
    renew_lease = AnsweredBy("leases")
    release_lease = AnsweredBy("leases")
    lease_ages = AnsweredBy("leases")

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events", sealer: Sealer | None = None) -> None:
        super().__init__(datastore, events_table_name=events_table_name, sealer=sealer)
        if self.datastore.enable_db_functions:
            # The library's database function inserts the events without any hook: no chain.
            raise ConfigurationError("the ledger cannot insert through database functions: unset POSTGRES_ENABLE_DB_FUNCTIONS")
        self.blobs_table_name = blobs_table(events_table_name)
        names = self._names(events_table_name)
        self.tables = PostgresTables(datastore, names, events_table_name)
        self.tables.add_to(self.sql_create_statements, self.create_table_statement_index)
        self.qualified_events = self.tables.qualified_events
        self.reads = PostgresLedgerReads(datastore, names)
        self.open_index = PostgresOpenIndex(datastore, names, self._lock_table, self.reads.fetch)
        self.leases = PostgresLeases(datastore, names, self.reads.fetch)
        # The library's hook for the writers' lock (its ``_lock_table`` runs these, prepared): its
        # lock timeout, then the advisory lock in place of its table lock. The library sets the
        # timeout even when it is 0 (none); that is the default, so the statement is left out
        # then: one statement fewer in every append's pipeline (each is sent as it is queued).
        self.lock_table_statements = [
            SQL("SELECT pg_advisory_xact_lock({0})").format(Literal(advisory_lock_key(self.qualified_events))),
        ]
        if self.datastore.lock_timeout:
            self.lock_table_statements.insert(
                0, SQL("SET LOCAL lock_timeout = '{0}s'").format(self.datastore.lock_timeout)
            )
        self.sql = WriterStatements(names)

    def _names(self, events_table_name: str) -> dict[str, Identifier]:
        """The schema and tables as SQL identifiers, each name checked against Postgres's bound."""
        tables = {
            "table": events_table_name,
            "checkpoints": f"{events_table_name}_checkpoints",
            "blobs": blobs_table(events_table_name),
            "open": open_table(events_table_name),
            "kinds": kinds_table(events_table_name),
            "leases": leases_table(events_table_name),
        }
        for name in tables.values():
            self.check_identifier_length(name)
        return {"schema": Identifier(self.datastore.schema), **{key: Identifier(name) for key, name in tables.items()}}

    def create_table(self) -> None:
        if self.tables.exist():
            # Made by the operator's owner role: only what a ledger made before lacks (tables.complete).
            self.tables.complete()
            return
        try:
            super().create_table()
        except PersistenceError:
            # Processes starting together on an empty database all try to create the tables (one
            # transaction each); all but one fail once the first commits. The tables then exist.
            if not self.tables.exist():
                raise

    def location(self) -> str:
        options = getattr(self.datastore.pool, "kwargs", None) or {}
        where = f"{options.get('host', '?')}:{options.get('port', '?')}/{options.get('dbname', '?')}"
        return f"postgres {where} {self.datastore.schema}.{self.events_table_name}"

    # --- writing -------------------------------------------------------------------------------

    def _lock_and_read_head(self, connection: Connection[Any]) -> tuple[tuple[int, bytes] | None, Checkpoint | None]:
        """The writers' lock (the library's ``_lock_table``), then the head: in pipeline mode they
        go out in one round trip."""
        self._lock_table(connection.cursor(row_factory=dict_row))
        return self._read_writer_head(connection)

    def _read_writer_head(self, connection: Connection[Any]) -> tuple[tuple[int, bytes] | None, Checkpoint | None]:
        cursor = connection.cursor(row_factory=tuple_row)
        cursor.execute(self.sql.select_writer_head, prepare=True)
        row = cursor.fetchone()
        assert row is not None
        head = (int(row[0]), bytes(row[1])) if row[0] is not None else None

        def read(sequence: int) -> Checkpoint | None:
            found = connection.cursor(row_factory=tuple_row)
            found.execute(self.sql.select_checkpoint, (sequence,), prepare=True)
            checkpoint = found.fetchone()
            return checkpoint_from_row(checkpoint) if checkpoint is not None else None

        # The newest checkpoint is read in full only when this process does not know it already.
        return head, self._newest.get(row[2], read)

    def _previous(self, connection: Connection[Any]) -> Callable[[str, int], bytes | None]:
        def previous(execution_id: str, version: int) -> bytes | None:
            known = self._written.get(execution_id, version)
            if known is not None:
                return known
            cursor = connection.cursor(row_factory=tuple_row)
            cursor.execute(self.sql.select_previous, (self.reads.column_id(execution_id), version), prepare=True)
            found = cursor.fetchone()
            return bytes(found[0]) if found else None

        return previous

    def _insert_stored_events(self, curs: Cursor[DictRow], stored_events: Sequence[StoredEvent], **kwargs: Any) -> None:
        """The library's hook for the insert, in its pipelined transaction: the writers' lock and
        the notification as the library takes them, the head read (one round trip), then the
        events chained after it with their MACs, the index of open executions and, when due, a
        checkpoint (a second, with the commit). The events go last, on the library's cursor, so
        that it fetches their notification ids as it does its own."""
        appended = self.appended()
        self._lock_table(curs)
        self._notify_channel(curs)
        connection = curs.connection
        head, last_checkpoint = self._read_writer_head(connection)
        rows = chain_batch(stored_events, head, self._previous(connection))
        self.open_index.record(connection, rows, self.holder)
        checkpoint, through = self._seal_due(
            last_checkpoint, head, rows, self._fetch_unsealed(connection), execution_ended=self._ends_execution(stored_events)
        )
        if checkpoint is not None:
            connection.execute(self.sql.insert_checkpoint, checkpoint_params(checkpoint), prepare=True)
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
        statement = self.sql.insert_chained_head + SQL(", ").join([self.sql.chained_values] * len(rows))
        curs.execute(statement + self.sql.insert_chained_returning, values, prepare=True)
        appended.note(rows, head, checkpoint, through)

    def _fetch_unsealed(self, connection: Connection[Any]) -> FetchRecords:
        def fetch(after: int, up_to: int) -> list[ChainRecord]:
            cursor = connection.cursor(row_factory=tuple_row, binary=True)
            cursor.execute(self.sql.select_unsealed, (after, up_to), prepare=True)
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
                    connection.execute(self.sql.insert_checkpoint, checkpoint_params(checkpoint), prepare=True)
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
                    connection.execute(self.sql.insert_checkpoint, checkpoint_params(checkpoint), prepare=True)
        self._verified.raise_to(verified)
        self._committed(checkpoint)
        return checkpoint


class Factory(factory.LedgerFactory, es_postgres.PostgresFactory):  # the module must hold exactly one factory class
    application_recorder_class = ChainedPostgresApplicationRecorder

    def __init__(self, env: Any, wiring: factory.LedgerWiring | None = None) -> None:
        super().__init__(env, wiring)
        # A refusing database is told at once, not after the waits and retries (breaker.py).
        # And one that takes the connection and answers nothing is cut off past a bound (answer_watch.py).
        answer_within_s = float(env.get(ANSWER_SETTING) or ANSWER_WITHIN_S)
        guard(self.datastore, answer_within_s=answer_within_s)

    @property
    def events_table(self) -> str:
        """The library's name for the application's events table (its own factory's rule)."""
        return f"{self.env.name.lower() or 'stored'}_events"

    def ledger_recorder(self, sealer: Sealer | None) -> ChainedPostgresApplicationRecorder:
        return ChainedPostgresApplicationRecorder(self.datastore, events_table_name=self.events_table, sealer=sealer)

    def blob_store(self) -> PostgresBlobStore:
        return PostgresBlobStore(self.datastore, self.datastore.schema, blobs_table(self.events_table))

    def work_lock(self) -> WorkLock:
        schema, table = self.datastore.schema, self.events_table
        return PostgresWorkLock(self.datastore, f'"{schema}"."{table}"')  # as the recorder names it


__all__ = ["ChainedPostgresApplicationRecorder", "Factory", "canonical_id"]
