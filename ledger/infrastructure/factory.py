"""What each backend's eventsourcing factory builds for the ledger, beyond the library's datastore:
the recorder with its sealer, the sealing (deferred seals, witnesses), the blob store and the work
lock (docs/decisions/0036).

``LedgerFactory`` is mixed in before the library's factory by each backend module
(``sqlite.Factory``, ``postgres.Factory``), which says how its recorder, blob store and work lock
are made; everything of the ledger the application uses comes from the factory it was built with,
so nobody picks a backend's companion by looking at the recorder's type. ``LedgerWiring`` carries
what the environment (strings) cannot: the ledger's policy with its keys and witnesses, the clock
and the timer of deferred seals. It is not an ``InfrastructureFactory`` itself: the library finds a
backend's factory as the one such class in its module.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from typing import Any

from mai_safety.ledger.application.ports import BlobStore, Ledger, Sealer, WorkLock
from mai_safety.ledger.application.sealing import LedgerSeals, LedgerWiring, sealer_for

from .identity import LedgerIdentity


class LedgerFactory:
    """The ledger's part of a backend's eventsourcing factory."""

    env: Any
    #: The library's factory's (next in the MRO; not declared here, which would hide it).
    env_create_table: Callable[[], bool]

    def __init__(self, env: Any, wiring: LedgerWiring | None = None) -> None:
        super().__init__(env)  # type: ignore[call-arg]  # the library's factory, next in the MRO
        self.wiring = wiring or LedgerWiring()
        #: The sealing of the ledger the recorder writes; None where nothing is sealed.
        self.seals: LedgerSeals | None = None
        self._ledger: Ledger | None = None
        self.identity: Callable[[], str | None] = LedgerIdentity(self.built_ledger)

    # The library's factory gives a recorder class its datastore alone; the ledger's recorder is
    # also given its sealer, so the factory builds it (no hook takes constructor arguments).
    def application_recorder(self) -> Any:
        policy = self.wiring.policy
        sealer = sealer_for(policy, self.wiring.clock) if policy is not None else None
        recorder = self.ledger_recorder(sealer)
        if self.env_create_table():
            recorder.create_table()
        if policy is not None and sealer is not None:
            self.seals = LedgerSeals(recorder, policy, sealer, start_timer=self.wiring.start_timer)
        self._ledger = recorder
        return recorder

    def built_ledger(self) -> Ledger | None:
        """The recorder this factory built for the application, once it has."""
        return self._ledger

    @abstractmethod
    def ledger_recorder(self, sealer: Sealer | None) -> Any:
        """This backend's chained recorder on the factory's datastore, built with ``sealer``."""

    @abstractmethod
    def blob_store(self) -> BlobStore:
        """Output kept out of events, in the ledger's own database (docs/decisions/0014)."""

    @abstractmethod
    def work_lock(self) -> WorkLock:
        """Work one process at a time does for the whole ledger (work_lock.py)."""


__all__ = ["LedgerFactory"]
