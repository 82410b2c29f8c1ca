"""Work one process at a time does for the whole ledger: recovery and the sweep of unanswered
waits. Two ``serve`` processes on one ledger must not both do it for one execution at once.

On Postgres a session-level advisory lock (``pg_try_advisory_lock``) on a connection of its own
(autocommit: no transaction is left open while the work runs, so no idle-in-transaction timeout
can end it; not one of the recorder's pool, which the work itself needs), named by the events
table and the work; freed when that connection closes, at the end or when the process dies. On SQLite a ``flock`` on a file beside the
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

from mai_safety.ledger.application.ports import ProcessWorkLock, WorkLock

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
    """A session-level advisory lock on a connection of its own, opened for the hold and closed
    after it (closing the session frees the lock): the work itself is free to use every
    connection of the recorder's pool, however small the pool is."""

    def __init__(self, datastore: Any, qualified_table: str) -> None:
        self._datastore = datastore
        self._table = qualified_table

    @contextmanager
    def hold(self, name: str, wait_s: float = 0.0) -> Iterator[bool]:
        import psycopg
        from eventsourcing.persistence import OperationalError

        key = work_lock_key(self._table, name)
        settings = {k: v for k, v in dict(self._datastore.pool.kwargs or {}).items() if k != "row_factory"}
        try:
            connection = psycopg.connect(autocommit=True, **{"connect_timeout": 10, **settings})
        except psycopg.Error as exc:
            raise OperationalError(f"cannot take the {name} lock: {str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__}") from None
        with connection:
            deadline = time.monotonic() + wait_s
            while True:
                row = connection.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
                got = bool(row and row[0])
                if got or time.monotonic() >= deadline:
                    break
                time.sleep(_RETRY_S)
            yield got
