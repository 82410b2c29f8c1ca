"""The embedded ledger: eventsourcing's SQLite recorder with both chain hashes on every row and
signed checkpoints in a table beside the events.

Selected by ``PERSISTENCE_MODULE=mai_safety.ledger.infrastructure.sqlite``. Appends go through the
library's ``insert_events`` (its pool, transaction and error mapping) and its per-transaction hook
``_insert_events`` (ledger/infrastructure/appending.py). Writing transactions take SQLite's write
lock first (``BEGIN IMMEDIATE``), so reading the ledger head and the newest checkpoint, appending
after them and sealing happen under one lock, across threads and processes. Whoever
can write the file can change anything in it; the signed checkpoints, the event MACs and the
witnesses are what catch that (docs/decisions/0007, 0011).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from eventsourcing import sqlite as es_sqlite
from eventsourcing.persistence import Notification, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor, SQLiteDatastore

from mai_safety.application.abandoned import Leases
from mai_safety.application.open_sets import OpenExecutions
from mai_safety.ledger.application.ports import Ledger, ProcessWorkLock, Sealer, WorkLock
from mai_safety.ledger.domain.chain import ChainRecord
from mai_safety.ledger.domain.checkpoint import Checkpoint

from mai_safety.infrastructure.private_files import private_file, tighten_if_present
from .appending import ChainedAppends
from . import factory
from .blobs import SQLiteBlobStore, blobs_table
from .chaining import CHECKPOINT_COLUMNS, chain_batch, checkpoint_params, covers, guarded_seal, seal_own_head
from .parts import AnsweredBy
from .sqlite_connections import StatementCachingPool, WriterCursor, WriterHead, forget_writer_head, read_writer_head
from .sqlite_parts import SQLiteLeases, SQLiteOpenIndex, add_missing_columns, create_statements
from .sqlite_reading import HASHED_ID, SQLiteLedgerReads
from .work_lock import FileWorkLock

#: What a writer reads to check others' events before it seals: everything but the state.
_CHECK_COLUMNS = f"ledger_position, {HASHED_ID}, originator_version, topic, NULL, event_hash, ledger_hash, event_mac"
_CHECKPOINT_PLACEHOLDERS = ",".join("?" * len(CHECKPOINT_COLUMNS.split(",")))


class ChainedSQLiteApplicationRecorder(ChainedAppends, SQLiteApplicationRecorder, Ledger, OpenExecutions, Leases):
    """The library's recorder, appending the chain through its hooks (appending.py); the ports'
    other questions are answered by the parts it holds (parts.py)."""

    head = AnsweredBy("reads")
    select_chain = AnsweredBy("reads")
    select_execution = AnsweredBy("reads")
    event_hash_of = AnsweredBy("reads")
    ledger_hash_at = AnsweredBy("reads")
    select_checkpoints = AnsweredBy("reads")
    checkpoint_before = AnsweredBy("reads")
    checkpoint_covering = AnsweredBy("reads")
    checkpoint_with_signature = AnsweredBy("reads")
    open_ids = AnsweredBy("open_index")
    open_holders = AnsweredBy("open_index")
    renew_lease = AnsweredBy("leases")
    release_lease = AnsweredBy("leases")
    lease_ages = AnsweredBy("leases")

    #: The library's name for an application's events table on SQLite.
    default_events_table = "stored_events"

    def __init__(self, datastore: SQLiteDatastore, events_table_name: str = "stored_events", *, sealer: Sealer | None = None) -> None:
        super().__init__(datastore, events_table_name, sealer=sealer)
        self.checkpoints_table_name = f"{events_table_name}_checkpoints"
        self.reads = SQLiteLedgerReads(datastore, events_table_name)
        self.open_index = SQLiteOpenIndex(datastore, events_table_name)
        self.leases = SQLiteLeases(datastore, events_table_name)
        # The library's hook for the notification log's end.
        self.select_max_notification_id_statement = f"SELECT MAX(ledger_position) FROM {self.events_table_name}"
        self._insert_statement = (
            f"INSERT INTO {self.events_table_name} (originator_id, originator_version, topic, state, "
            "ledger_position, event_hash, ledger_hash, event_mac) VALUES (?,?,?,?,?,?,?,?)"
        )

    # No hook (docs/decisions/0037): the library writes this query inline on ``rowid`` and reads
    # ``row["rowid"]``, which SQLite names ledger_position where the position is the row id.
    def select_notifications(  # noqa: PLR0913 - the library's signature
        self, start: int | None, limit: int, stop: int | None = None, topics: Sequence[str] = (), *, inclusive_of_start: bool = True
    ) -> Sequence[Notification]:
        """The library's query, with the ledger position as the notification id."""
        conditions: list[str] = []
        params: list[Any] = []
        if start is not None:
            conditions.append("ledger_position >= ?" if inclusive_of_start else "ledger_position > ?")
            params.append(start)
        if stop is not None:
            conditions.append("ledger_position <= ?")
            params.append(stop)
        if topics:
            conditions.append(f"topic IN ({','.join('?' * len(topics))})")
            params.extend(topics)
        where = f"WHERE {' AND '.join(conditions)} " if conditions else ""
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(
                f"SELECT ledger_position, originator_id, originator_version, topic, state FROM {self.events_table_name} "
                f"{where}ORDER BY ledger_position LIMIT ?",
                [*params, limit],
            )
            return [
                Notification(
                    id=row[0],
                    originator_id=self.convert_originator_id(row[1]),
                    originator_version=row[2],
                    topic=row[3],
                    state=row[4],
                )
                for row in cursor.fetchall()
            ]

    @property
    def blobs_table_name(self) -> str:
        """Output kept out of events (docs/decisions/0014; ledger/infrastructure/blobs.py)."""
        return blobs_table(self.events_table_name)

    def construct_create_table_statements(self) -> list[str]:
        return create_statements(self.events_table_name)

    def _create_table(self, c: SQLiteCursor) -> None:
        """Create what is missing, and the columns a ledger made before them lacks."""
        super()._create_table(c)
        add_missing_columns(c, self.events_table_name)

    def location(self) -> str:
        return f"sqlite {self.file_path() or self.datastore.pool.db_name}"

    def file_path(self) -> Path | None:
        pool = self.datastore.pool
        if pool.is_sqlite_memory_mode:
            return None
        return Path(pool.db_name).resolve()

    # --- writing -------------------------------------------------------------------------------

    def _insert_events(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int]:
        """The library's per-transaction hook, under the write lock: chain the events after the
        head, insert them with their MACs, keep the index of open executions, seal when due."""
        appended = self.appended()
        head, last_checkpoint, seen = self._read_writer_head(c)
        rows = chain_batch(stored_events, head, self._previous(c))
        key = self._sealer.event_mac() if self._sealer is not None else None
        for chained in rows:
            stored = chained.stored
            c.execute(
                self._insert_statement,
                (
                    chained.originator.replace("-", ""),
                    stored.originator_version,
                    stored.topic,
                    stored.state,
                    chained.position,
                    chained.event_hash,
                    chained.ledger_hash,
                    chained.mac(key),
                ),
            )
        self.open_index.record(c, rows, self.holder)
        checkpoint, through = self._seal_due(
            last_checkpoint, head, rows, self._fetch_unsealed(c), execution_ended=self._ends_execution(stored_events)
        )
        if checkpoint is not None:
            self._insert_checkpoint(c, checkpoint)
        appended.note(rows, head, checkpoint, through)
        if rows and isinstance(c, WriterCursor):
            # Committed, the next append on this connection needs no head read unless another
            # connection commits meanwhile (which changes the data version this one sees).
            version, newest = seen
            written = WriterHead(version, (rows[-1].position, rows[-1].ledger_hash), checkpoint.sequence if checkpoint else newest)
            appended.on_commit.append(lambda: setattr(c.connection, "writer_head", written))
        return [chained.position for chained in rows]

    def _previous(self, cursor: SQLiteCursor) -> Callable[[str, int], bytes | None]:
        def previous(execution_id: str, version: int) -> bytes | None:
            known = self._written.get(execution_id, version)
            if known is not None:
                return known
            cursor.execute(
                f"SELECT event_hash FROM {self.events_table_name} WHERE originator_id=? AND originator_version=?",
                (self.reads.column_id(execution_id), version),
            )
            found = cursor.fetchone()
            return bytes(found[0]) if found else None

        return previous

    def _fetch_unsealed(self, cursor: SQLiteCursor) -> Any:
        def fetch(after: int, up_to: int) -> list[ChainRecord]:
            cursor.execute(
                f"SELECT {_CHECK_COLUMNS} FROM {self.events_table_name} WHERE ledger_position > ? "
                "AND ledger_position <= ? ORDER BY ledger_position",
                (after, up_to),
            )
            return [ChainRecord._make(tuple(row)) for row in cursor.fetchall()]

        return fetch

    def _insert_checkpoint(self, cursor: SQLiteCursor, checkpoint: Checkpoint) -> None:
        cursor.execute(
            f"INSERT INTO {self.checkpoints_table_name} ({CHECKPOINT_COLUMNS}) VALUES ({_CHECKPOINT_PLACEHOLDERS})",
            checkpoint_params(checkpoint),
        )

    def seal(self, reason: str) -> Checkpoint | None:
        with self.datastore.transaction(commit=True) as cursor:
            head, last_checkpoint, _ = self._read_writer_head(cursor)
            checkpoint, through = None, None
            if head is not None and self._sealer is not None:
                checkpoint, through = guarded_seal(
                    self._sealer, self._verified, last_checkpoint, head, self._fetch_unsealed(cursor), force=reason
                )
            if checkpoint is not None:
                self._insert_checkpoint(cursor, checkpoint)
            forget_writer_head(cursor)
        self._verified.raise_to(through)
        self._committed(checkpoint)
        return checkpoint or last_checkpoint

    def seal_written(self, reason: str, *, through: int | None = None) -> Checkpoint | None:
        own = self._own.get()
        if own is None or self._sealer is None:
            return None
        if covers(self._newest.position, through):
            return None  # a checkpoint this process wrote or read covers it already
        with self.datastore.transaction(commit=True) as cursor:
            _, last_checkpoint, _ = self._read_writer_head(cursor)
            checkpoint, verified = seal_own_head(
                self._sealer, self._verified, last_checkpoint, own, reason, through, self._fetch_unsealed(cursor)
            )
            if checkpoint is not None:
                self._insert_checkpoint(cursor, checkpoint)
            forget_writer_head(cursor)
        self._verified.raise_to(verified)
        self._committed(checkpoint)
        return checkpoint

    def _read_writer_head(self, cursor: SQLiteCursor) -> tuple[tuple[int, bytes] | None, Checkpoint | None, tuple[int, int | None]]:
        return read_writer_head(cursor, self.events_table_name, self.checkpoints_table_name, self._newest)


class Factory(factory.LedgerFactory, es_sqlite.SQLiteFactory):  # the module must hold exactly one factory class
    # The library takes its pool's class from no setting: the pool its datastore made becomes ours.
    application_recorder_class = ChainedSQLiteApplicationRecorder

    def __init__(self, env: Any, wiring: factory.LedgerWiring | None = None) -> None:
        super().__init__(env, wiring)
        pool = StatementCachingPool.adopt(self.datastore.pool)
        if not (pool.is_sqlite_memory_mode or pool.db_name.startswith("file:")):
            keep_ledger_private(Path(pool.db_name))

    def ledger_recorder(self, sealer: Sealer | None) -> ChainedSQLiteApplicationRecorder:
        return ChainedSQLiteApplicationRecorder(self.datastore, sealer=sealer)

    def blob_store(self) -> SQLiteBlobStore:
        return SQLiteBlobStore(self.datastore, blobs_table(ChainedSQLiteApplicationRecorder.default_events_table))

    def work_lock(self) -> WorkLock:
        pool = self.datastore.pool
        return ProcessWorkLock() if pool.is_sqlite_memory_mode else FileWorkLock(Path(pool.db_name).resolve())


def keep_ledger_private(path: Path) -> None:
    """The ledger's file made 0600 before SQLite first opens it (SQLite gives its WAL, SHM and
    journal the database file's mode), and an existing one and its companions tightened: the
    ledger holds every submitter's code, output and findings."""
    private_file(path, "the ledger")
    for suffix in ("-wal", "-shm", "-journal"):
        tighten_if_present(path.with_name(path.name + suffix), "the ledger's file")


__all__ = ["ChainedSQLiteApplicationRecorder", "Factory"]
