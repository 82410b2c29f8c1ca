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
from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg import Connection, Cursor
from psycopg.rows import DictRow, dict_row, tuple_row
from psycopg.sql import SQL, Identifier, Literal

from mai_safety.ledger.application.sealing import SEAL
from mai_safety.application.errors import ConfigurationError
from mai_safety.application.abandoned import Leases
from mai_safety.application.open_sets import OpenExecutions, OpenSet, replay
from mai_safety.application.ports import Ledger
from mai_safety.ledger.domain.chain import ChainRecord
from mai_safety.ledger.domain.checkpoint import Checkpoint

from .appending import ChainedAppends
from .blobs import blobs_table
from .answer_watch import ANSWER_SETTING, ANSWER_WITHIN_S
from .breaker import GuardedPostgresDatastore
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
from .open_index import changes_of, kinds_table, leases_table, open_table
from .postgres_reading import PostgresLedgerReads
from .postgres_setup import PostgresLedgerSetUp


class _CommitWithInsert(PostgresApplicationRecorder):
    """The library's ``insert_events`` (eventsourcing 9.5.6, its path without database functions)
    less one round trip: it syncs the pipeline after the insert (so that a uniqueness violation
    raises an ``IntegrityError`` there rather than at the commit), then commits in a second round
    trip. Ours reads the head in the hook (one round trip) and must not pay two more: here the
    insert goes out with the COMMIT and the notification ids are fetched once it has returned, as
    this recorder did before it moved onto the library's hooks (bench/ledger_bench.py: the append
    ratio fell 6 to 14 points with the extra sync). A violation still raises ``IntegrityError``:
    psycopg raises the failed statement's own error when the pipeline syncs at the commit, and
    the datastore maps it. Everything else is the library's: its connection, retries, hooks
    (``_insert_events``, ``_insert_stored_events``) and ``_fetch_ids_after_insert_events``.
    Compare with the library's method when upgrading it."""

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            with conn.pipeline(), conn.transaction():
                with conn.cursor() as first:
                    self._insert_events(first, stored_events, **kwargs)
                if stored_events:
                    self._insert_stored_events(curs, stored_events, **kwargs)
            # Committed: the pipeline synced on leaving, so the insert's rows are here.
            return self._fetch_ids_after_insert_events(curs, stored_events, **kwargs) if stored_events else None


class ChainedPostgresApplicationRecorder(
    ChainedAppends, PostgresLedgerSetUp, PostgresLedgerReads, _CommitWithInsert, Ledger, OpenExecutions, Leases
):
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
        self.leases_table_name = leases_table(events_table_name)
        names = {
            "schema": Identifier(self.datastore.schema),
            "table": Identifier(self.events_table_name),
            "checkpoints": Identifier(self.checkpoints_table_name),
            "blobs": Identifier(self.blobs_table_name),
            "open": Identifier(self.open_table_name),
            "kinds": Identifier(self.kinds_table_name),
            "leases": Identifier(self.leases_table_name),
        }
        self._open_insert = SQL(
            "INSERT INTO {schema}.{open} (kind, originator_id, holder) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING"
        ).format(**names)
        self._open_delete = SQL("DELETE FROM {schema}.{open} WHERE originator_id = %s AND kind = ANY(%s)").format(
            **names
        )
        self._open_select = SQL(
            "SELECT EXISTS (SELECT 1 FROM {schema}.{kinds} WHERE kind = %s), "
            "ARRAY(SELECT originator_id FROM {schema}.{open} WHERE kind = %s ORDER BY originator_id), "
            "ARRAY(SELECT holder FROM {schema}.{open} WHERE kind = %s ORDER BY originator_id)"
        ).format(**names)
        self._lease_renew = SQL(
            "INSERT INTO {schema}.{leases} (holder, renewed_at) VALUES (%s, extract(epoch from clock_timestamp())) "
            "ON CONFLICT (holder) DO UPDATE SET renewed_at = excluded.renewed_at"
        ).format(**names)
        self._lease_release = SQL("UPDATE {schema}.{leases} SET renewed_at = 0 WHERE holder = %s").format(**names)
        self._lease_ages = SQL(
            "SELECT holder, extract(epoch from clock_timestamp()) - renewed_at FROM {schema}.{leases}"
        ).format(**names)
        self._open_holders_of = SQL("SELECT originator_id, holder FROM {schema}.{open} WHERE kind = %s").format(**names)
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
        self.qualified_leases = f'"{self.datastore.schema}"."{self.leases_table_name}"'
        self.qualified_events = f'"{self.datastore.schema}"."{self.events_table_name}"'
        self.qualified_blobs = f'"{self.datastore.schema}"."{self.blobs_table_name}"'
        self.qualified_checkpoints = f'"{self.datastore.schema}"."{self.checkpoints_table_name}"'
        self._compose_tables(names)
        self._compose_reads(names)
        checkpoint_columns = SQL(CHECKPOINT_COLUMNS)
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
        self._select_writer_head = SQL(
            "SELECT h.ledger_position, h.ledger_hash, (SELECT max(sequence) FROM {schema}.{checkpoints}) "
            "FROM (SELECT 1) AS one LEFT JOIN LATERAL (SELECT ledger_position, ledger_hash FROM {schema}.{table} "
            "ORDER BY ledger_position DESC LIMIT 1) AS h ON true"
        ).format(**names)
        self._select_checkpoint = SQL("SELECT {columns} FROM {schema}.{checkpoints} WHERE sequence = %s").format(
            columns=checkpoint_columns, **names
        )
        self._insert_chained_head = SQL(
            "INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state, "
            "ledger_position, event_hash, ledger_hash, event_mac) VALUES "
        ).format(**names)
        self._chained_values = SQL("(%s, %s, %s, %s, %s, %s, %s, %s)")
        self._insert_chained_returning = SQL(" RETURNING notification_id")
        self._insert_checkpoint = SQL("INSERT INTO {schema}.{checkpoints} ({columns}) VALUES ({values})").format(
            columns=checkpoint_columns, values=SQL(", ".join(["%s"] * len(CHECKPOINT_COLUMNS.split(",")))), **names
        )
        # The id as text, formatted by the server (see postgres_reading.py).
        self._select_unsealed = SQL(
            "SELECT ledger_position, originator_id::text, originator_version, topic, NULL::bytea, event_hash, "
            "ledger_hash, event_mac FROM {schema}.{table} WHERE ledger_position > %s AND ledger_position <= %s "
            "ORDER BY ledger_position"
        ).format(**names)

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
                connection.execute(self._open_insert, (kind, originator, self.holder), prepare=True)
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
        return list(self.open_holders(open_set))

    def open_holders(self, open_set: OpenSet) -> dict[str, str | None]:
        # The mark and the rows in one snapshot. No mark: never read through, or the unlogged
        # tables were emptied by a crash of the database (or someone): read through, then again.
        for _ in range(2):
            ((read, members, holders),) = self._fetch(self._open_select, (open_set.kind,) * 3)
            if read:
                break
            self._read_through(open_set)
        return {str(member): (str(holder) if holder is not None else None) for member, holder in zip(members, holders)}

    # --- the servers' leases (application/abandoned.py) ------------------------------------------

    def renew_lease(self, holder: str) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(self._lease_renew, (holder,))

    def release_lease(self, holder: str) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(self._lease_release, (holder,))

    def lease_ages(self) -> dict[str, float]:
        return {str(holder): float(age) for holder, age in self._fetch(self._lease_ages, ())}

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
                # Rows written since the set was first kept name their holder: keep it.
                cursor.execute(self._open_holders_of, (open_set.kind,))
                holders = {str(row[0]): row[1] for row in cursor.fetchall()}
                cursor.execute(self._open_clear, (open_set.kind,))
                cursor.executemany(
                    self._open_insert, [(open_set.kind, member, holders.get(member)) for member in sorted(members)]
                )
                cursor.execute(self._kind_insert, (open_set.kind,))

class Factory(es_postgres.PostgresFactory):  # the module must hold exactly one factory class
    application_recorder_class = ChainedPostgresApplicationRecorder

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        # A refusing database is told at once, not after the waits and retries (breaker.py).
        # And one that takes the connection and answers nothing is cut off past a bound (answer_watch.py).
        answer_within_s = float(env.get(ANSWER_SETTING) or ANSWER_WITHIN_S)
        self.datastore = GuardedPostgresDatastore.like(self.datastore, answer_within_s=answer_within_s)


__all__ = ["ChainedPostgresApplicationRecorder", "Factory", "canonical_id"]
