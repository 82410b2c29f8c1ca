"""How the SQLite ledger connects: eventsourcing's pool, connection and transaction, with writing
transactions that take the write lock at BEGIN, connections that remember the head they last
appended, and a statement cache worth the name (ledger/infrastructure/sqlite.py uses them)."""

from __future__ import annotations

import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from eventsourcing.persistence import InterfaceError, OperationalError
from eventsourcing.sqlite import (
    SQLITE3_DEFAULT_LOCK_TIMEOUT,
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteCursor,
    SQLiteTransaction,
)

from mai_safety.ledger.domain.checkpoint import Checkpoint

from .chaining import CHECKPOINT_COLUMNS, NewestCheckpoint, checkpoint_from_row


#: Compiled statements each connection keeps: a writer's, a reader's page, the checks.
STATEMENTS = 64


@dataclass(frozen=True)
class WriterHead:
    """What one connection last appended: the head after it, the newest checkpoint's sequence,
    and the data version the connection saw then. SQLite changes a connection's data version
    whenever another connection (of this process or any other) commits, and never for its own
    commits; so while it is unchanged, under the write lock, the head is still this one."""

    seen_version: int
    head: tuple[int, bytes]
    newest: int | None


class LedgerConnection(SQLiteConnection):
    """eventsourcing's connection, whose writing transactions take the write lock at BEGIN and
    which remembers the head it last appended (``WriterHead``; set only once that committed)."""

    writer_head: WriterHead | None = None
    #: One thread's own connection for writing, outside the pool (``StatementCachingPool``).
    thread_writer: bool = False

    @contextmanager
    def transaction(self, *, commit: bool) -> Iterator[SQLiteCursor]:
        # The library's own transaction for reading; for writing, the same with BEGIN IMMEDIATE.
        transaction = ImmediateTransaction(self, commit=True) if commit else SQLiteTransaction(self, commit=False)
        with transaction as cursor, cursor:
            yield cursor


class WriterCursor(SQLiteCursor):
    """A writing transaction's cursor, which knows its connection (the hook is given the cursor
    alone, and the head it appends is remembered on the connection)."""

    def __init__(self, connection: LedgerConnection) -> None:
        super().__init__(connection._sqlite_conn.cursor())  # noqa: SLF001
        self.connection = connection

    def data_version(self) -> int:
        self.execute("PRAGMA data_version")
        return int(self.fetchone()[0])


class ImmediateTransaction(SQLiteTransaction):
    """eventsourcing's transaction (its rollback, commit and error mapping), taking the write lock
    at BEGIN. A writer reads the head before it appends; a deferred transaction that read first
    could not then take the lock behind another connection's commit (SQLite answers busy at once,
    without waiting), which the library's own recorder never meets because it does not read."""

    connection: LedgerConnection

    def __enter__(self) -> SQLiteCursor:
        cursor = WriterCursor(self.connection)
        cursor.execute("BEGIN IMMEDIATE")
        return cursor


def forget_writer_head(cursor: SQLiteCursor) -> None:
    """A seal's checkpoint is newer than what the connection kept: it reads the head next time
    (its own commit leaves its data version as it was). Forgotten before the commit: harmless if
    that fails."""
    if isinstance(cursor, WriterCursor):
        cursor.connection.writer_head = None


class StatementCachingPool(SQLiteConnectionPool):
    """eventsourcing's pool, except that each connection keeps its compiled statements, is a
    ``LedgerConnection`` (writing transactions begin IMMEDIATE), and a thread writes on its own.
    The library's datastore makes its pool inline; ``adopt`` makes that pool one of these in place,
    its options untouched (no hook chooses the class: docs/decisions/0037)."""

    _own_writers: threading.local
    _writers: weakref.WeakSet[LedgerConnection]

    @classmethod
    def adopt(cls, pool: SQLiteConnectionPool) -> StatementCachingPool:
        pool.__class__ = cls
        assert isinstance(pool, StatementCachingPool)
        pool._own_writers = threading.local()
        pool._writers = weakref.WeakSet()
        return pool

    def get_connection(self, timeout: float | None = None, *, is_writer: bool | None = None) -> SQLiteConnection:
        """For writing, this thread's own connection, kept open for its appends; the pool's
        otherwise, and wherever the database lives in memory (its connections must share the
        pool's locking). No hook fits: the pool's checkout and return cost an append about 30 µs
        of CPU (measured: 524 against 491 µs an event), and SQLite's write lock, which every
        writing transaction takes at BEGIN, serialises writers anyway. A thread's connection
        closes when the thread ends (only its local storage holds it) or when the pool closes."""
        if is_writer is not True or self.is_sqlite_memory_mode:
            return super().get_connection(timeout, is_writer=is_writer)
        connection: LedgerConnection | None = getattr(self._own_writers, "connection", None)
        if connection is None or connection.closed:
            connection = self._create_connection()
            connection.thread_writer = True
            self._own_writers.connection = connection
            self._writers.add(connection)
        return connection

    def put_connection(self, conn: SQLiteConnection) -> None:
        if not getattr(conn, "thread_writer", False):
            super().put_connection(conn)

    def close(self) -> None:
        for connection in list(self._writers):
            connection.close()
        super().close()

    def _create_connection(self) -> LedgerConnection:
        # The library's connection (its WAL switch, row factory and error mapping), opened again
        # with a statement cache: the library's holds one statement (``cached_statements=True``)
        # and cannot be resized once open, so a writer that reads the head and the newest
        # checkpoint before it appends would compile them again on every save (measured: about
        # 80 µs of CPU, a third of a save). The second opening costs once per connection.
        made = self._library_connection()
        try:
            own = sqlite3.connect(
                self.db_name, uri=True, check_same_thread=False, isolation_level=None, cached_statements=STATEMENTS,
                timeout=self.lock_timeout or SQLITE3_DEFAULT_LOCK_TIMEOUT,
            )
        except sqlite3.Error as exc:
            raise InterfaceError(exc) from exc
        finally:
            made.close()
        own.row_factory = sqlite3.Row
        return LedgerConnection(sqlite_conn=own, max_age=self.max_age)

    def _library_connection(self) -> SQLiteConnection:
        """The library's connection, opened again while the file is locked, within the lock
        timeout. Its ``PRAGMA journal_mode=WAL`` on a new file, met by another process's doing
        the same, can be refused at once (SQLite does not wait where waiting could deadlock):
        sixteen CLI runs started together on a new ledger lost one in two times to it. The
        library raises SQLite's own error here, unmapped (docs/decisions/0037)."""
        deadline = time.monotonic() + (self.lock_timeout or SQLITE3_DEFAULT_LOCK_TIMEOUT)
        pause = 0.005
        while True:
            try:
                return super()._create_connection()
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise OperationalError(exc) from exc
                if time.monotonic() + pause > deadline:
                    raise OperationalError(exc) from exc
                time.sleep(pause)
                pause = min(pause * 2, 0.1)


def read_writer_head(
    cursor: SQLiteCursor, events_table: str, checkpoints_table: str, newest: NewestCheckpoint
) -> tuple[tuple[int, bytes] | None, Checkpoint | None, tuple[int, int | None]]:
    """Under the lock: the head, the newest checkpoint (read in full only when this process
    does not know it already), and the connection's data version with that checkpoint's
    sequence.

    When nothing was committed through another connection since this one last appended (its
    data version is unchanged), the head is the one it wrote and nothing is read. Otherwise
    one statement of two plain indexed lookups: SQLite plans that far better than a join of
    the two (measured: 15 µs against 130 µs)."""
    kept = cursor.connection.writer_head if isinstance(cursor, WriterCursor) else None
    version = cursor.data_version() if isinstance(cursor, WriterCursor) else -1
    if kept is not None and kept.seen_version == version:
        head, sequence = kept.head, kept.newest
    else:
        cursor.execute(
            f"SELECT * FROM (SELECT 0, ledger_position, ledger_hash FROM {events_table} "
            f"ORDER BY ledger_position DESC LIMIT 1) "
            f"UNION ALL SELECT 1, MAX(sequence), NULL FROM {checkpoints_table}"
        )
        head, sequence = None, None
        for row in cursor.fetchall():
            if row[0] == 0:
                head = (int(row[1]), bytes(row[2]))
            else:
                sequence = row[1]

    def read(number: int) -> Checkpoint | None:
        cursor.execute(f"SELECT {CHECKPOINT_COLUMNS} FROM {checkpoints_table} WHERE sequence = ?", (number,))
        found = cursor.fetchone()
        return checkpoint_from_row(tuple(found)) if found is not None else None

    return head, newest.get(sequence, read), (version, sequence)
