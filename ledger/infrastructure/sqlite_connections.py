"""How the SQLite ledger connects: eventsourcing's pool, connection and transaction, with writing
transactions that take the write lock at BEGIN, connections that remember the head they last
appended, and a statement cache worth the name (ledger/infrastructure/sqlite.py uses them)."""

from __future__ import annotations

import sqlite3
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from eventsourcing.persistence import InterfaceError
from eventsourcing.sqlite import (
    SQLITE3_DEFAULT_LOCK_TIMEOUT,
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteCursor,
    SQLiteTransaction,
)


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
    """eventsourcing's pool, except that each connection keeps its compiled statements and is a
    ``LedgerConnection`` (writing transactions begin IMMEDIATE).

    No hook fits here: the library connects with ``cached_statements=True``, a cache of one
    statement, inside ``_create_connection``, and a connection's cache cannot be resized after.
    Every statement but the last would be compiled again each time; a writer that reads the head
    and the newest checkpoint before it appends would pay that on every save (measured: about
    80 µs of CPU, a third of a save). The rest is the library's ``_create_connection``, unchanged.
    """

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._own_writers = threading.local()
        self._writers: weakref.WeakSet[LedgerConnection] = weakref.WeakSet()

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
        try:
            connection = sqlite3.connect(
                database=self.db_name,
                uri=True,
                check_same_thread=False,
                isolation_level=None,  # auto-commit: transactions are begun explicitly
                cached_statements=64,
                timeout=self.lock_timeout or SQLITE3_DEFAULT_LOCK_TIMEOUT,
            )
        except (sqlite3.Error, TypeError) as exc:
            raise InterfaceError(exc) from exc
        if not self.is_sqlite_memory_mode and not self.is_journal_mode_wal:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode;")
            if cursor.fetchone()[0].lower() != "wal":
                cursor.execute("PRAGMA journal_mode=WAL;")
                self.journal_mode_was_changed_to_wal = True
            self.is_journal_mode_wal = True
        connection.row_factory = sqlite3.Row
        return LedgerConnection(sqlite_conn=connection, max_age=self.max_age)
