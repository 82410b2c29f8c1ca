"""Commands that run code, each in a thread of its own so that a request waits for it only up to
the server's bound; and the drain at shutdown: no new run, the running ones finish within a grace."""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

from eventsourcing.persistence import PersistenceError

from mai_safety.application.errors import LedgerUnavailable

from .problems import ServiceStopping

T = TypeVar("T")


class Runs:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[threading.Thread, str] = {}
        self._unrecorded: set[str] = set()  # runs whose command failed for the ledger: their end may be unrecorded
        self._accepting = True

    def start(self, execution_id: str, work: Callable[[], T]) -> Future[T]:
        """Run ``work`` (an application command, in the caller's context: its principal and
        actor) in a thread; the returned future holds its result or its error."""
        future: Future[T] = Future()
        context = contextvars.copy_context()

        def body() -> None:
            try:
                future.set_result(context.run(work))
            except BaseException as exc:  # noqa: BLE001 - handed to whoever waits on the future
                if isinstance(exc, (LedgerUnavailable, PersistenceError)):
                    with self._lock:
                        self._unrecorded.add(execution_id)
                future.set_exception(exc)
            finally:
                with self._lock:
                    self._running.pop(threading.current_thread(), None)

        thread = threading.Thread(target=body, name=f"mai-safety-run-{execution_id}", daemon=True)
        with self._lock:
            if not self._accepting:
                raise ServiceStopping("the service is stopping and takes no new runs: try again on its next start")
            self._running[thread] = execution_id
            thread.start()
        return future

    def running_ids(self) -> list[str]:
        with self._lock:
            return sorted(set(self._running.values()))

    def unrecorded(self) -> set[str]:
        """Runs whose command ended in a ledger error: how they ended may not be recorded."""
        with self._lock:
            return set(self._unrecorded)

    def stop_accepting(self) -> None:
        with self._lock:
            self._accepting = False

    def drain(self, grace_s: float) -> list[str]:
        """Stop taking runs, wait up to ``grace_s`` for the running ones; return the ids still running."""
        self.stop_accepting()
        deadline = time.monotonic() + grace_s
        while True:
            with self._lock:
                left = dict(self._running)
            if not left or time.monotonic() >= deadline:
                return sorted(set(left.values()))
            next(iter(left)).join(timeout=max(0.0, min(0.2, deadline - time.monotonic())))
