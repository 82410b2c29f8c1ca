"""A bound on how long one use of a pooled Postgres connection may wait for the database
(docs/decisions/0024, amended).

A database that accepts TCP and answers nothing (a paused or hung server, a frozen host) leaves a
statement waiting for ever: the host's kernel acknowledges what is sent, so no TCP timeout fires,
libpq has no timeout of its own for a statement, and the server's ``statement_timeout`` needs a
server that runs. One thread watches every connection lent out by the ledger's pool; a use that
lasts past ``answer_within_s`` has its socket shut down, so that the waiting call fails
(``OperationalError``: the library's, mapped as every other) and the breaker opens, telling the
next callers at once. The next use that ends in time closes it again.

The bound is for one use of a connection (a read of a page, an append with its lock and commit),
never for a whole command: generous (30 s as shipped; ``MAI_SAFETY_LEDGER_ANSWER_S``) against
the lock waits a busy host's appends meet, which the library's own ``lock_timeout`` bounds first.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

#: As shipped: how long one use of a connection may wait for the database.
ANSWER_WITHIN_S = 30.0
#: The key of the store's environment that carries MAI_SAFETY_LEDGER_ANSWER_S (settings.py).
ANSWER_SETTING = "MAI_SAFETY_LEDGER_ANSWER_S"
#: How often the watch looks.
LOOK_EVERY_S = 0.25


class Opens(Protocol):
    def refused(self, reason: str) -> None: ...

    def connected(self) -> None: ...


class AnswerWatch:
    def __init__(self, answer_within_s: float, breaker: Opens) -> None:
        self.answer_within_s = answer_within_s
        self._breaker = breaker
        self._lock = threading.Lock()
        self._lent: dict[int, tuple[Any, float]] = {}
        self._cut: set[int] = set()
        self._thread: threading.Thread | None = None

    @contextmanager
    def watching(self, connection: Any) -> Iterator[None]:
        """Watch ``connection`` while the body uses it; an answer in time closes the breaker."""
        key = id(connection)
        with self._lock:
            self._lent[key] = (connection, time.monotonic() + self.answer_within_s)
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="mai-safety-ledger-watch", daemon=True)
                self._thread.start()
        answered = False
        try:
            yield
            answered = True
        finally:
            with self._lock:
                self._lent.pop(key, None)
                was_cut = key in self._cut
                self._cut.discard(key)
            if answered and not was_cut:
                self._breaker.connected()

    def _watch(self) -> None:
        while True:
            time.sleep(LOOK_EVERY_S)
            now = time.monotonic()
            with self._lock:
                late = [(key, connection) for key, (connection, deadline) in self._lent.items() if deadline <= now and key not in self._cut]
                self._cut.update(key for key, _ in late)
            for _, connection in late:
                self._breaker.refused(f"no answer within {self.answer_within_s:g} s")
                cut(connection)


def cut(connection: Any) -> None:
    """Shut the connection's socket down under libpq, so that a call waiting on it fails now."""
    try:
        duplicate = os.dup(connection.pgconn.socket)
    except (OSError, AttributeError, ValueError):
        return  # closed meanwhile: nothing waits on it
    try:
        with socket.socket(fileno=duplicate) as raw:
            raw.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
