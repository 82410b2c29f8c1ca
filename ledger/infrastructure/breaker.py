"""The Postgres ledger's circuit breaker: while the database refuses connections, a caller is told
at once (``LedgerUnavailable``) instead of waiting out the pool's wait for a connection and the
library's retries (docs/decisions/0024).

The pool is the sensor. Each of its attempts to connect is reported here: refused (or not answered
within the connect timeout) opens the breaker, connected closes it. While it is open, one caller
every ``probe_every_s`` is let through to wait ``probe_wait_s`` for a connection (which makes the
pool try again); the others are refused without a wait. A slow pool is not a refusing database: a
caller waits the pool's full wait for a connection as long as no attempt to connect has failed.

``GuardedPostgresDatastore`` is the library's datastore with the breaker in ``get_connection``, the
one place where psycopg's errors become the library's (its mapping, kept) or ours (the breaker's).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import psycopg_pool
from eventsourcing import persistence
from eventsourcing.postgres import PostgresDatastore
from psycopg import Connection
from psycopg.rows import DictRow
from psycopg.types.composite import register_composite

from mai_safety.application.errors import LedgerUnavailable

from .answer_watch import ANSWER_WITHIN_S, AnswerWatch

#: How long a caller let through while the breaker is open waits for a connection.
PROBE_WAIT_S = 2.0
#: How often, while the breaker is open, a caller is let through to probe.
PROBE_EVERY_S = 2.0
#: Longest a caller waits for a connection in one go, while the breaker is closed: between two
#: waits it looks whether an attempt to connect failed meanwhile.
WAIT_SLICE_S = 0.5
#: How long the pool retries a lost connection on its own (psycopg_pool's default: 5 minutes, with
#: the delays doubling up to a minute or more): after it gives up, the next caller's wait makes
#: it connect again at once, so the service answers again soon after the database does.
POOL_RECONNECT_S = 10.0


class Breaker:
    """Open from the first failed attempt to connect until the next successful one."""

    def __init__(
        self,
        *,
        probe_wait_s: float = PROBE_WAIT_S,
        probe_every_s: float = PROBE_EVERY_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.probe_wait_s = probe_wait_s
        self.probe_every_s = probe_every_s
        self._clock = clock
        self._lock = threading.Lock()
        self._open_since: float | None = None
        self._reason = ""
        self._next_probe = 0.0

    @property
    def is_open(self) -> bool:
        return self._open_since is not None

    def refused(self, reason: str) -> None:
        """An attempt to connect failed."""
        with self._lock:
            now = self._clock()
            if self._open_since is None:
                self._open_since = now
                self._next_probe = now + self.probe_every_s
            self._reason = reason

    def connected(self) -> None:
        """An attempt to connect succeeded."""
        with self._lock:
            self._open_since = None

    def admit(self, wait_s: float) -> float:
        """How long this caller may wait for a connection: ``wait_s`` while the breaker is closed,
        ``probe_wait_s`` for the one caller that probes; raises ``LedgerUnavailable`` otherwise."""
        with self._lock:
            if self._open_since is None:
                return wait_s
            now = self._clock()
            if now >= self._next_probe:
                self._next_probe = now + self.probe_wait_s + self.probe_every_s
                return min(wait_s, self.probe_wait_s)
            raise self.unavailable(now)

    def check(self) -> None:
        """Raise ``LedgerUnavailable`` if an attempt to connect failed since the last that succeeded."""
        with self._lock:
            if self._open_since is not None:
                raise self.unavailable(self._clock())

    def unavailable(self, now: float) -> LedgerUnavailable:
        assert self._open_since is not None
        return LedgerUnavailable(
            f"the ledger's database has refused connections for {now - self._open_since:.0f} s ({self._reason}): "
            "nothing was recorded, try again later"
        )


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def reporting_connections(breaker: Breaker) -> type[Connection[DictRow]]:
    """The connection class the pool connects with: each attempt's outcome goes to ``breaker``."""

    class ReportingConnection(Connection[DictRow]):
        @classmethod
        def connect(cls, *args: Any, **kwargs: Any) -> ReportingConnection:
            try:
                connection = super().connect(*args, **kwargs)
            except psycopg.OperationalError as exc:
                breaker.refused(_first_line(exc))
                raise
            breaker.connected()
            return connection

    return ReportingConnection


class GuardedPostgresDatastore(PostgresDatastore):
    """The library's datastore, its pool reporting to a breaker that ``get_connection`` consults."""

    def __init__(
        self, *args: Any, breaker: Breaker | None = None, answer_within_s: float = ANSWER_WITHIN_S, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.breaker = breaker or Breaker()
        guard_pool(self.pool, self.breaker)
        # A database that takes the connection and answers nothing: each use is bounded (answer_watch.py).
        self.watch = AnswerWatch(answer_within_s, self.breaker)

    @classmethod
    def like(
        cls, datastore: PostgresDatastore, breaker: Breaker | None = None, answer_within_s: float = ANSWER_WITHIN_S
    ) -> GuardedPostgresDatastore:
        """The same datastore (the library's factory made it from POSTGRES_*), guarded; ``datastore``'s
        pool, never opened, is closed. Every option of the library's constructor (eventsourcing
        9.5.6) is read back from what it keeps public: compare when upgrading the library."""
        pool = datastore.pool
        options = pool.kwargs if isinstance(pool.kwargs, dict) else {}
        guarded = cls(
            dbname=options["dbname"],
            host=options["host"],
            port=options["port"],
            user=options["user"],
            password=options["password"],
            connect_timeout=pool.timeout,
            idle_in_transaction_session_timeout=datastore.idle_in_transaction_session_timeout,
            pool_size=pool.min_size,
            max_overflow=(pool.max_size or pool.min_size) - pool.min_size,
            max_waiting=pool.max_waiting,
            conn_max_age=pool.max_lifetime,
            pre_ping=datastore.pre_ping,
            lock_timeout=datastore.lock_timeout,
            schema=datastore.schema,
            pool_open_timeout=datastore.pool_open_timeout,
            get_password_func=pool.get_password_func,
            single_row_tracking=datastore.single_row_tracking,
            originator_id_type="text" if datastore.originator_id_type == "text" else "uuid",
            enable_db_functions=datastore.enable_db_functions,
            breaker=breaker,
            answer_within_s=answer_within_s,
        )
        datastore.close()
        return guarded

    @contextmanager
    def get_connection(self) -> Iterator[Connection[DictRow]]:
        # The library's method (eventsourcing 9.5.6) with the breaker's wait for the connection in
        # place of the pool's; compare with it when upgrading the library.
        try:
            wait = self.pool_open_timeout is not None
            self.pool.open(wait, self.pool_open_timeout or 30.0)
            with connection_within(self.pool, self.breaker) as conn, self.watch.watching(conn):
                for info in self.psycopg_type_adapters.values():
                    if not conn.adapters.types.get(info.oid):
                        register_composite(info, conn)
                yield conn
        except psycopg.InterfaceError as e:
            raise persistence.InterfaceError(str(e)) from e
        except psycopg.OperationalError as e:
            raise persistence.OperationalError(str(e)) from e
        except psycopg.DataError as e:
            raise persistence.DataError(str(e)) from e
        except psycopg.IntegrityError as e:
            raise persistence.IntegrityError(str(e)) from e
        except psycopg.InternalError as e:
            raise persistence.InternalError(str(e)) from e
        except psycopg.ProgrammingError as e:
            raise persistence.ProgrammingError(str(e)) from e
        except psycopg.NotSupportedError as e:
            raise persistence.NotSupportedError(str(e)) from e
        except psycopg.DatabaseError as e:
            raise persistence.DatabaseError(str(e)) from e
        except psycopg.Error as e:
            raise persistence.PersistenceError(str(e)) from e


def guard_pool(pool: psycopg_pool.ConnectionPool[Any], breaker: Breaker) -> None:
    """The pool's own options, which the library's datastore does not expose: the class it
    connects with, how long it retries a lost connection alone, and how long one attempt to
    connect may take (libpq's default, psycopg's 130 s, would leave a database that accepts TCP
    and answers nothing unnoticed that long): the pool's wait for a connection, POSTGRES_CONNECT_TIMEOUT,
    which a busy host's connections already had to meet."""
    pool.connection_class = reporting_connections(breaker)
    pool.reconnect_timeout = POOL_RECONNECT_S
    if isinstance(pool.kwargs, dict):
        pool.kwargs.setdefault("connect_timeout", max(1, round(pool.timeout)))


@contextmanager
def connection_within(pool: psycopg_pool.ConnectionPool[Any], breaker: Breaker) -> Iterator[Connection[DictRow]]:
    """A connection from ``pool`` within its wait (``pool.timeout``, POSTGRES_CONNECT_TIMEOUT) or
    the breaker's, whichever is shorter; ``LedgerUnavailable`` as soon as the breaker opens. Not
    retried by the library: it retries only its own InterfaceError and OperationalError."""
    deadline = time.monotonic() + breaker.admit(pool.timeout)
    probing = breaker.is_open
    while True:
        left = deadline - time.monotonic()
        try:
            conn = pool.getconn(timeout=max(0.01, left if probing else min(left, WAIT_SLICE_S)))
            break
        except psycopg_pool.PoolTimeout:
            if time.monotonic() >= deadline:
                if probing:
                    breaker.check()
                raise
            if not probing:
                breaker.check()
    try:
        with conn:  # the pool's own context: commit or roll back, as ``pool.connection()`` does
            yield conn
    finally:
        pool.putconn(conn)
