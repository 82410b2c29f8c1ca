"""Samples reach the ledger from a thread of their own, so that the database can never freeze the
loop that enforces a run's limits.

The supervising loop hands each sample to ``offer`` and goes on at once; a bounded queue sits
between it and the writer, and a full queue drops the sample (counted) rather than wait. ``offer``
answers False, which stops the run, when the execution was ended by another writer (a cancel) or
when the ledger has not answered for ``stall_s``: a run must not go on unrecorded for long.
"""

from __future__ import annotations

import contextvars
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from mai_safety.domain.payloads import UsageRecord

_STOP = object()


class SampleWriter:
    def __init__(
        self,
        save: Callable[[UsageRecord], bool],
        *,
        capacity: int = 16,
        stall_s: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._save = save
        self._queue: queue.Queue[Any] = queue.Queue(capacity)
        self._clock = clock
        self.stall_s = stall_s
        self.dropped = 0
        self.ended_elsewhere = threading.Event()
        self._closing = threading.Event()
        self.stalled_out = False
        self.last_error: BaseException | None = None
        self._waiting_since: float | None = None  # a save under way, or failing, since then
        # The writer saves in the context of whoever started the run, so each sample is stamped with
        # the same actor (and principal) as the run's other events, not the process's default. Its
        # thread starts with the first sample: a short run offers none, and its path neither starts
        # nor joins a thread (issue #29).
        context = contextvars.copy_context()
        self._thread = threading.Thread(target=context.run, args=(self._work,), name="mai-safety-samples", daemon=True)

    def offer(self, sample: UsageRecord) -> bool:
        if self.ended_elsewhere.is_set():
            return False
        if self.stalled():
            self.stalled_out = True
            return False
        try:
            self._queue.put_nowait(sample)
        except queue.Full:
            self.dropped += 1
        if self._thread.ident is None:
            self._thread.start()
        return True

    def stalled(self) -> bool:
        since = self._waiting_since
        return since is not None and self._clock() - since > self.stall_s

    def close(self, wait_s: float) -> bool:
        """Stop taking samples and let the writer finish what it holds; True once it has."""
        self._closing.set()
        if self._thread.ident is None:
            return True  # never offered a sample: nothing to finish
        try:
            self._queue.put_nowait(_STOP)
        except queue.Full:
            pass
        self._thread.join(wait_s)
        return not self._thread.is_alive()

    def _work(self) -> None:
        while True:
            try:
                item = self._queue.get(timeout=0.5)
            except queue.Empty:
                if self.ended_elsewhere.is_set() or self._closing.is_set():
                    return
                continue
            if item is _STOP:
                return
            if self._waiting_since is None:
                self._waiting_since = self._clock()
            try:
                alive = self._save(item)
            except Exception as exc:  # noqa: BLE001 - the ledger's own error, kept for the caller
                self.last_error = exc
                continue  # still waiting on the ledger: _waiting_since stands
            self._waiting_since = None
            self.last_error = None
            if not alive:
                self.ended_elsewhere.set()
                return
