"""Submissions this server has handed an id for but the ledger may not hold yet.

``POST /v1/executions`` answers ``202`` with the execution's id as soon as its wait ends, which
can be while the code is still being assessed: nothing is recorded until the verdict is (the
first event, ``Assessed``, carries it). From the moment the id is handed out, its submitter may
read it (``GET`` answers ``202``, status ``assessing``) and follow it (the stream says
``assessing``, then goes on once it is recorded); anyone else gets the 404 of an unknown id, as
for another submitter's execution.

An entry goes as soon as the command ends well: the ledger answers for it from then on. A
command that failed is kept for ``KEEP_FAILED_S`` (at most ``KEEP_FAILED`` of them), so that
reading the id answers with that failure (the problem the ``POST`` would have answered: a refusal
of the request, such as invalid code) rather than a bare 404; a refusal of the moment (no room,
the ledger or Docker not answering) is answered as what it left: a 404 saying that nothing was
recorded under the id, and why (execution_routes.py), never the moment's 503 replayed. Kept in this process only: another server of the same ledger knows the id once
it is recorded.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

#: The status of an execution whose id was handed out before anything was recorded.
ASSESSING = "assessing"
#: How long, and how many, submissions that failed before they were recorded are remembered.
KEEP_FAILED_S = 600.0
KEEP_FAILED = 1024


@dataclass
class PendingSubmission:
    """One handed-out id: who submitted it and the command that will record it."""

    submitter: str
    future: Future[Any]
    failed_at: float | None = field(default=None)

    def done(self) -> bool:
        return self.future.done()

    def failure(self) -> BaseException | None:
        """The command's error once it has ended with one; None while it runs or when it ended well."""
        return self.future.exception() if self.future.done() else None


class Submissions:
    def __init__(self, keep_failed_s: float = KEEP_FAILED_S, keep_failed: int = KEEP_FAILED) -> None:
        self.keep_failed_s = keep_failed_s
        self.keep_failed = keep_failed
        self._lock = threading.Lock()
        self._pending: dict[str, PendingSubmission] = {}
        self._failed: OrderedDict[str, PendingSubmission] = OrderedDict()

    def add(self, execution_id: str, submitter: str, future: Future[Any]) -> None:
        """Remember ``execution_id`` until ``future`` (the command that records it) has ended."""
        entry = PendingSubmission(submitter, future)
        with self._lock:
            self._pending[execution_id] = entry
        future.add_done_callback(lambda _: self._ended(execution_id, entry))

    def of(self, execution_id: str, principal: str) -> PendingSubmission | None:
        """The pending submission ``principal`` made under that id; None for anyone else's, or none."""
        with self._lock:
            self._forget_old(time.monotonic())
            entry = self._pending.get(execution_id) or self._failed.get(execution_id)
        return entry if entry is not None and entry.submitter == principal else None

    def count(self) -> int:
        with self._lock:
            return len(self._pending)

    def _ended(self, execution_id: str, entry: PendingSubmission) -> None:
        with self._lock:
            if self._pending.get(execution_id) is entry:
                del self._pending[execution_id]
            if entry.failure() is None:
                return
            entry.failed_at = time.monotonic()
            self._failed[execution_id] = entry
            self._failed.move_to_end(execution_id)
            self._forget_old(entry.failed_at)

    def _forget_old(self, now: float) -> None:
        while self._failed:
            oldest = next(iter(self._failed.values()))
            if len(self._failed) <= self.keep_failed and now - (oldest.failed_at or now) < self.keep_failed_s:
                return
            self._failed.popitem(last=False)
