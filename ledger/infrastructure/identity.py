"""A ledger's identity: its ledger hash at position 1 (the first event, its execution's id and its
time, chained), as its witnesses already know it (ledger/application/sealing.py). Stable across moves,
copies and URLs of one ledger, and different for two ledgers; none while the ledger is empty. The
sandbox labels each container with it, so that a sweep keeps to its own ledger's containers
(infrastructure/sandbox/cleanup.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from eventsourcing.persistence import PersistenceError

from mai_safety.application.errors import LedgerUnavailable
from mai_safety.ledger.application.ports import Ledger


class LedgerIdentity:
    """Asked of the ledger until it has one, then kept: it never changes."""

    def __init__(self, ledger: Callable[[], Ledger | None]) -> None:
        """``ledger``: the ledger once it is built (its factory's ``built_ledger``)."""
        self._ledger = ledger
        self._known: str | None = None
        self._lock = threading.Lock()

    def __call__(self) -> str | None:
        with self._lock:
            if self._known is None:
                ledger = self._ledger()
                if ledger is None:
                    return None
                try:
                    first = ledger.ledger_hash_at(1)
                except (PersistenceError, LedgerUnavailable):
                    return None  # asked again next time; the container goes unlabelled (cleanup.py)
                self._known = first.hex() if first is not None else None
            return self._known
