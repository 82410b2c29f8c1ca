"""Work one process at a time does for the whole ledger: recovery and the sweep of unanswered
waits. Two ``serve`` processes on one ledger must not both do it for one execution at once.

On Postgres a session-level advisory lock (``pg_try_advisory_lock``) on one of the recorder's own
connections (autocommit: no transaction is left open while the work runs, so no idle-in-transaction
timeout can end it), named by the events table and the work; released at the end, and by the
database if the process or its connection dies. On SQLite a ``flock`` on a file beside the
database (``<ledger>.<work>.lock``), released by the kernel when the process dies; an in-memory
ledger has one process, and a thread lock does.

The ledger's own version check already refuses a second ending of one execution (the loser's
save is an IntegrityError, and it moves on); the lock keeps two processes from doing the same
work side by side (reading every waiting execution, killing and describing containers) and makes
"one sweeper at a time" a rule rather than a race that happens to end well.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mai_safety.application.ports import ProcessWorkLock, WorkLock

#: How often a waiting ``hold`` tries again.
_RETRY_S = 0.05


def work_lock_key(qualified_table: str, name: str) -> int:
    """A stable 64-bit advisory lock key for one kind of work on one events table (never the
    writers' key: that one is taken per transaction by every append)."""
    digest = hashlib.sha256(f"mai-safety/ledger-work/{qualified_table}/{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class FileWorkLock(WorkLock):
    """Processes on one host sharing a SQLite ledger: ``flock`` on a file beside it. Each hold
    opens the file anew, so two threads of one process exclude each other as well."""

    def __init__(self, database: Path) -> None:
        self._database = database
        self._here = ProcessWorkLock()  # where no lock file can be made beside the ledger

    @contextmanager
    def hold(self, name: str, wait_s: float = 0.0) -> Iterator[bool]:
        path = self._database.with_name(f"{self._database.name}.{name}.lock")
        try:
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        except OSError:
            # A folder we may not write in (a read-only copy being checked): one process's lock;
            # SQLite's single writer and the ledger's version check still keep each end single.
            with self._here.hold(name, wait_s) as got:
                yield got
            return
        got = False
        try:
            deadline = time.monotonic() + wait_s
            while True:
                try:
                    fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    got = True
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        break
                    time.sleep(_RETRY_S)
            yield got
        finally:
            os.close(descriptor)  # closing releases the lock


class PostgresWorkLock(WorkLock):
    def __init__(self, datastore: Any, qualified_table: str) -> None:
        self._datastore = datastore
        self._table = qualified_table

    @contextmanager
    def hold(self, name: str, wait_s: float = 0.0) -> Iterator[bool]:
        key = work_lock_key(self._table, name)
        with self._datastore.get_connection() as connection:
            deadline = time.monotonic() + wait_s
            while True:
                row = connection.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
                got = bool(next(iter(row.values())) if isinstance(row, dict) else row[0])
                if got or time.monotonic() >= deadline:
                    break
                time.sleep(_RETRY_S)
            try:
                yield got
            finally:
                if got:
                    try:
                        connection.execute("SELECT pg_advisory_unlock(%s)", (key,))
                    except Exception:  # noqa: BLE001 - a broken connection's session, and its lock, are gone
                        pass


def work_lock_beside(recorder: object) -> WorkLock:
    """The work lock for the ledger the application's recorder writes."""
    from .sqlite import ChainedSQLiteApplicationRecorder

    if isinstance(recorder, ChainedSQLiteApplicationRecorder):
        path = recorder.file_path()
        return FileWorkLock(path) if path is not None else ProcessWorkLock()
    if type(recorder).__module__ == f"{__package__}.postgres":
        from .postgres import ChainedPostgresApplicationRecorder

        if isinstance(recorder, ChainedPostgresApplicationRecorder):
            return PostgresWorkLock(recorder.datastore, recorder.qualified_events)
    return ProcessWorkLock()
