"""The Postgres ledger's circuit breaker: while the database refuses connections, a caller is told
at once (``LedgerUnavailable``) instead of waiting out the pool's wait for a connection and the
library's retries (docs/decisions/0024).

The pool is the sensor. Each of its attempts to connect is reported here: refused (or not answered
within the connect timeout) opens the breaker, connected closes it. While it is open, one caller
every ``probe_every_s`` is let through to wait ``probe_wait_s`` for a connection (which makes the
pool try again); the others are refused without a wait. A slow pool is not a refusing database: a
caller waits the pool's full wait for a connection as long as no attempt to connect has failed.

``GuardedPool`` is the library's pool with the breaker in ``getconn``: the library's datastore, its
``get_connection`` and its mapping of psycopg's errors stay its own; ours (the breaker's) pass
through them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import psycopg_pool
from eventsourcing.postgres import PostgresDatastore
from psycopg import Connection
from psycopg.rows import DictRow

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


class GuardedPool(psycopg_pool.ConnectionPool[Connection[DictRow]]):
    """The pool the library's datastore made (``guard`` makes it one of these): its wait for a
    connection is the breaker's, and each use is watched. The library's ``get_connection`` is
    left whole: it opens the pool, takes ``pool.connection()`` and maps psycopg's errors."""

    breaker: Breaker
    watch: AnswerWatch

    def getconn(self, timeout: float | None = None) -> Connection[DictRow]:
        # The pool's own wait, in slices between which the breaker is consulted: a caller is told
        # as soon as an attempt to connect fails, not when its whole wait is out.
        deadline = time.monotonic() + self.breaker.admit(self.timeout if timeout is None else timeout)
        probing = self.breaker.is_open
        while True:
            left = deadline - time.monotonic()
            try:
                return super().getconn(timeout=max(0.01, left if probing else min(left, WAIT_SLICE_S)))
            except psycopg_pool.PoolTimeout:
                if time.monotonic() >= deadline:
                    if probing:
                        self.breaker.check()
                    raise
                if not probing:
                    self.breaker.check()

    @contextmanager
    def connection(self, timeout: float | None = None) -> Iterator[Connection[DictRow]]:
        # The pool's own context (commit or roll back, return the connection), each use watched.
        with super().connection(timeout) as conn, self.watch.watching(conn):
            yield conn


def guard(
    datastore: PostgresDatastore, breaker: Breaker | None = None, answer_within_s: float = ANSWER_WITHIN_S
) -> GuardedPool:
    """The library's datastore, its pool made a ``GuardedPool`` in place: every option the
    library gave it is kept, none read back. No hook chooses the pool's class (the datastore builds
    it inline; docs/decisions/0037). Then the pool's own options the datastore does not expose:
    the class it connects with (each attempt reported to the breaker), how long it retries a lost
    connection alone, and how long one attempt to connect may take (libpq's default, psycopg's
    130 s, would leave a database that accepts TCP and answers nothing unnoticed that long): the
    pool's wait for a connection, POSTGRES_CONNECT_TIMEOUT, which a busy host's connections
    already had to meet. Not retried by the library, ``LedgerUnavailable``: it retries only its
    own InterfaceError and OperationalError."""
    pool = datastore.pool
    pool.__class__ = GuardedPool
    assert isinstance(pool, GuardedPool)
    pool.breaker = breaker or Breaker()
    # A database that takes the connection and answers nothing: each use is bounded (answer_watch.py).
    pool.watch = AnswerWatch(answer_within_s, pool.breaker)
    pool.connection_class = reporting_connections(pool.breaker)
    pool.reconnect_timeout = POOL_RECONNECT_S
    if isinstance(pool.kwargs, dict):
        pool.kwargs.setdefault("connect_timeout", max(1, round(pool.timeout)))
    return pool
