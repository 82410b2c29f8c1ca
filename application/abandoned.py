"""Every execution ends: who judges that nobody will ever move an open execution on (issue #24).

An execution recorded and on its way to start (``pending``: Assessed, or answered by Overridden,
waiting for nobody) or running has a holder: the process that wrote the opening event (the index
of open executions keeps it beside the row, application.open_sets) or the supervisor Started
names. While the holder lives it moves the execution on; once it is gone nobody will, so recovery
(at start, and the sweeper under its work lock) ends it: ``not_started`` for a pending one,
``supervisor_lost`` for a run (application.supervision).

A holder is gone when it is

- this process, and this process gave the execution up and said why (its start failed, the
  ledger did not take its end): ``InFlight`` says what it handles, from before the opening event
  is saved, and why it stopped;
- a process on this host that no longer lives (``Sandbox.is_orphaned``);
- a server whose lease expired: each ``serve`` renews a row in the ledger's database (``Leases``,
  beside the events, not an event) every third of its lease period; a row older than the period
  is expired. The age is the database's clock on Postgres, so no two hosts' clocks are compared.
  A judge trusts its own view of the leases only once it has held its own lease without a gap for
  a whole period: after a pause of the database every lease looks expired, and each server gets
  one period to renew before any is judged.

A process that holds no lease (a CLI on another host) is never judged by a lease; a row read
through the events has no holder, and its execution is judged by its age alone (``UNKNOWN_AFTER_S``).
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone

#: A pending execution whose holder nobody knows (an index row read through the events: a ledger
#: from before holders, or Postgres's unlogged index emptied by a crash of the database) is ended
#: once its last event is this old: longer than a start waits for room as shipped (queue_wait_s 60).
UNKNOWN_AFTER_S = 120.0
#: The lease period as shipped (``serve --lease``): a server silent this long is gone.
LEASE_S = 45.0


class Leases(ABC):
    """The servers' leases on a ledger: one heartbeat row per serving process, in the ledger's
    database beside the events, never an event."""

    @abstractmethod
    def renew_lease(self, holder: str) -> None:
        """Write ``holder``'s heartbeat now (the row is made on the first renewal)."""

    @abstractmethod
    def release_lease(self, holder: str) -> None:
        """Give the lease up (a clean stop): the row reads as expired at once."""

    @abstractmethod
    def lease_ages(self) -> dict[str, float]:
        """Each holder's seconds since its last renewal, by the database's clock where it has one."""


class InFlight:
    """The executions this process is moving on now, and why it stopped moving one on when it
    could not record that (``causes``): the cause recovery writes once the ledger answers."""

    #: A cause is kept at least this long, then only while its execution is open.
    KEEP_CAUSE_S = 300.0

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._ids: dict[str, int] = {}
        self._clock = clock
        self.causes: dict[str, str] = {}
        self._given_up_at: dict[str, float] = {}

    def enter(self, execution_id: str) -> None:
        with self._lock:
            self._ids[execution_id] = self._ids.get(execution_id, 0) + 1

    def leave(self, execution_id: str, cause: str | None = None) -> None:
        with self._lock:
            left = self._ids.get(execution_id, 0) - 1
            if left > 0:
                self._ids[execution_id] = left
            else:
                self._ids.pop(execution_id, None)
            if cause is not None:
                self.causes[execution_id] = cause
                self._given_up_at[execution_id] = self._clock()

    def __contains__(self, execution_id: object) -> bool:
        with self._lock:
            return execution_id in self._ids

    def cause_of(self, execution_id: str) -> str | None:
        with self._lock:
            return self.causes.get(execution_id)

    def forget(self, execution_id: str) -> None:
        with self._lock:
            self.causes.pop(execution_id, None)
            self._given_up_at.pop(execution_id, None)

    def prune(self, still_open: set[str]) -> None:
        """Forget the causes of executions that have ended (most failures end theirs where they arise)."""
        with self._lock:
            old = [key for key, at in self._given_up_at.items() if self._clock() - at > self.KEEP_CAUSE_S]
            for key in old:
                if key not in still_open:
                    self.causes.pop(key, None)
                    self._given_up_at.pop(key, None)


@dataclass
class Liveness:
    """Judges holders for this process (``own_id``: its supervisor id, asked each time)."""

    own_id: Callable[[], str]
    is_orphaned: Callable[[str], bool]
    leases: Leases | None
    in_flight: InFlight
    lease_s: float = LEASE_S
    clock: Callable[[], float] = time.monotonic
    _held_since: float | None = field(default=None, init=False)
    _last_renewal: float | None = field(default=None, init=False)

    def renew(self) -> bool:
        """Renew this process's lease; False when the ledger did not take it (raised on)."""
        if self.leases is None:
            return False
        try:
            self.leases.renew_lease(self.own_id())
        except Exception:
            self._held_since = None
            raise
        now = self.clock()
        if self._held_since is None or self._last_renewal is None or now - self._last_renewal > self.lease_s:
            self._held_since = now  # a gap: every lease may have lapsed with ours; judge none for a period
        self._last_renewal = now
        return True

    def release(self) -> None:
        if self.leases is not None:
            self.leases.release_lease(self.own_id())

    def judges_leases(self) -> bool:
        """Whether this process has held its own lease, without a gap, for a whole period."""
        return (
            self._held_since is not None
            and self._last_renewal is not None
            and self.clock() - self._last_renewal <= self.lease_s
            and self.clock() - self._held_since >= self.lease_s
        )

    def ages(self) -> dict[str, float]:
        """The leases' ages when this process may judge by them; else none."""
        if self.leases is None or not self.judges_leases():
            return {}
        return self.leases.lease_ages()

    def why_gone(self, execution_id: str, holder: str | None, ages: dict[str, float]) -> str | None:
        """Why ``holder`` will never move ``execution_id`` on, or None while it may (or nobody knows)."""
        if not holder:
            return None
        if holder == self.own_id():
            # Gone only when this process gave it up and said why (a thread that vanished without
            # a word is not judged: the process may be a test's, or about to end anyway).
            return None if execution_id in self.in_flight else self.in_flight.cause_of(execution_id)
        if self.is_orphaned(holder):
            return f"its process {holder} is gone"
        age = ages.get(holder)
        if age is not None and age > self.lease_s:
            return f"the lease of {holder} expired {age - self.lease_s:.0f} s ago (lease period {self.lease_s:g} s)"
        return None

    def why_unknown_gone(self, execution_id: str, last_event: datetime) -> str | None:
        """For a pending execution whose holder nobody knows: gone once it is old enough."""
        if execution_id in self.in_flight:
            return None
        age = (datetime.now(timezone.utc) - last_event).total_seconds()
        if age > UNKNOWN_AFTER_S:
            return f"nothing was recorded on it for {age:.0f} s and no server says it holds it"
        return None


__all__ = ["InFlight", "LEASE_S", "Leases", "Liveness", "UNKNOWN_AFTER_S"]
