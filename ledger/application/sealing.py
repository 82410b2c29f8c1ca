"""Sealing the ledger under signed checkpoints.

``CheckpointSealer`` is given to the ledger's recorder when the ledger's factory builds it
(ledger/infrastructure/factory.py); the recorder asks it inside every insert transaction (under
the writers' lock) whether the new head needs a checkpoint: every N events, or on the first write
T seconds after the last checkpoint, and when the append holds an execution's ending (its topic
says so) if the policy seals endings at once. Otherwise ``DeferredSeals`` seals what this process wrote at most
``endings_within`` seconds after an ending, one signature for every ending of the interval, and
before the service closes (docs/decisions/0009). So every finished execution lies under a
signature at once or within that bound. ``LedgerSeals`` wires both to one ledger and its witnesses.

The clock and the timer are constructor arguments with real defaults, so that a test can stop
time or fire a timer without reaching into these classes.

Every event the service appends carries a MAC under a key derived from its signing key; the
ledger checks what it did not write before it seals, so a checkpoint never signs an event inserted
by someone without the key. Every committed checkpoint also goes to the witnesses. See
docs/decisions/0007-signed-checkpoints.md, 0009 and 0011-event-macs-and-witnesses.md.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Protocol

from mai_safety.ledger.domain.chain import GENESIS, ChainRecord, ChainVerifier, EventMac, Problem
from mai_safety.ledger.domain.checkpoint import Checkpoint, CheckpointRule, checkpoint_message
from mai_safety.domain.errors import MaiSafetyError
from mai_safety.domain.output import DEFAULT_INLINE_BYTES

from mai_safety.ledger.application.ports import KeyStore, Ledger, Sealer, Signer, Witnesses
from mai_safety.application.topics import ENDING_TOPICS, LEDGER_TOPICS

Clock = Callable[[], datetime]


class Timer(Protocol):
    """A started timer: what ``DeferredSeals`` needs of ``threading.Timer``."""

    def cancel(self) -> None: ...

    def join(self, timeout: float | None = None) -> None: ...


#: Starts a timer that calls its second argument once after its first (seconds).
StartTimer = Callable[[float, Callable[[], None]], Timer]


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def start_daemon_timer(delay: float, then: Callable[[], None]) -> Timer:
    """The real timer: a daemon thread (a stopping process does not wait for it; ``close`` does)."""
    timer = threading.Timer(delay, then)
    timer.daemon = True
    timer.start()
    return timer


class LedgerTampered(MaiSafetyError):
    """The ledger holds something the service did not write: it will not sign over it."""


@dataclass(frozen=True)
class LedgerPolicy:
    """policies/ledger.yaml, read: when to seal, where the key is, what retention means, and
    where every checkpoint is also written (``witnesses``)."""

    rule: CheckpointRule
    keys: KeyStore
    archive_after_days: float | None = None
    witnesses: Witnesses | None = None
    #: Each output stream longer than this (UTF-8 bytes) is kept as a blob (docs/decisions/0014).
    inline_output_bytes: int = DEFAULT_INLINE_BYTES


@dataclass(frozen=True)
class LedgerWiring:
    """What a ledger's factory is built with besides its environment (ledger/infrastructure/
    factory.py): the policy with its keys and witnesses, the clock, the timer of deferred seals.
    No policy: nothing is sealed (bare unit tests)."""

    policy: LedgerPolicy | None = None
    clock: Clock = utc_now
    start_timer: StartTimer = start_daemon_timer


class CheckpointSealer(Sealer):
    """What the ledger asks, inside its insert transaction, whether and how to seal."""

    def __init__(
        self,
        rule: CheckpointRule,
        keys: KeyStore,
        clock: Clock = utc_now,
        witnesses: Witnesses | None = None,
    ) -> None:
        self.rule = rule
        self._keys = keys
        self._clock = clock
        self._signer: Signer | None = None
        self._mac: EventMac | None = None
        self._trusted: dict[Checkpoint, None] = {}  # the last few made or checked here, whole
        self._witnesses = witnesses
        #: Deferred endings whose seal, once due, rides on the next append (decision 0009).
        self.deferred: DeferredSeals | None = None
        #: The last problem that stopped (or cut short) a seal (docs/decisions/0011).
        self.refusal: Problem | None = None
        self._told: set[tuple[str, int | None]] = set()

    def _signing(self) -> Signer:
        if self._signer is None:
            self._signer = self._keys.signer()  # created on first use, then kept for the process
        return self._signer

    def ends_execution(self, topics: Iterable[str]) -> bool:
        """Whether an append of events with these topics must seal in its own transaction: it
        holds an execution's ending and the policy seals endings at once (decision 0009)."""
        return self.deferred is None and any(topic in ENDING_TOPICS for topic in topics)

    def appended(self, position: int, topics: Sequence[str]) -> None:
        """An append through ``position`` committed: an ending among it is owed a deferred seal."""
        if self.deferred is not None and any(topic in ENDING_TOPICS for topic in topics):
            self.deferred.ending_saved(position)

    def reason_to_seal(
        self, last: Checkpoint | None, head_position: int, *, execution_ended: bool = False, force: str | None = None
    ) -> str | None:
        if not execution_ended and force is None and self.deferred is not None and self.deferred.take_due():
            execution_ended = True
        reason = self.rule.due(last=last, head_position=head_position, now=self._clock(), execution_ended=execution_ended)
        if reason is None and force is not None and head_position > (last.position if last else 0):
            reason = force
        return reason

    def make_checkpoint(
        self, last: Checkpoint | None, position: int, ledger_hash: bytes, reason: str, *, macs_from: int | None
    ) -> Checkpoint:
        """A v2 checkpoint (declaring event MACs from ``macs_from`` on), or v1 without MACs."""
        signer = self._signing()
        key_id = signer.public_key.key_id
        sequence = last.sequence + 1 if last else 1
        previous = last.link() if last else GENESIS
        signed_at = self._clock().astimezone(timezone.utc).isoformat(timespec="microseconds")
        version = 1 if macs_from is None else 2
        message = checkpoint_message(
            sequence, position, ledger_hash, signed_at, reason, key_id, previous, version=version, macs_from=macs_from
        )
        checkpoint = Checkpoint(
            sequence, position, ledger_hash, signed_at, reason, key_id, previous, signer.sign(message), version, macs_from
        )
        self._trust(checkpoint)
        return checkpoint

    def _trust(self, checkpoint: Checkpoint) -> None:
        trusted = self._trusted
        trusted[checkpoint] = None
        while len(trusted) > 64:
            del trusted[next(iter(trusted))]

    def event_mac(self) -> EventMac:
        if self._mac is None:
            self._mac = EventMac(self._signing().mac_key())
        return self._mac

    def trusts(self, checkpoint: Checkpoint) -> bool:
        if checkpoint in self._trusted:
            return True
        key = self._signing().public_key
        if checkpoint.key_id != key.key_id or not key.verify(checkpoint.message(), checkpoint.signature):
            return False
        self._trust(checkpoint)
        return True

    def committed(self, checkpoint: Checkpoint) -> None:
        if self._witnesses is not None:
            self._witnesses.publish(checkpoint)

    def refused(self, problem: Problem) -> None:
        self.refusal = problem
        told = (problem.kind.value, problem.position)
        if told in self._told:
            return
        self._told.add(told)
        print(
            f"mai-safety: the ledger is not sealed past {problem.describe()}; "
            "run `mai-safety audit verify` (docs/decisions/0011)",
            file=sys.stderr,
        )


class DeferredSeals:
    """Seals endings a moment after they are recorded: one signature covers every ending of the
    interval, so a busy service signs a few times a second rather than once per execution.

    ``ending_saved(position)`` arms a timer (if none is armed). Halfway through the interval the
    seal falls *due*: the next append of this process seals in its own transaction (the sealer
    asks ``take_due``), which costs a signature and no transaction of its own. At the end of the
    interval, if no checkpoint covers the endings yet (nothing was appended, or that transaction
    failed), ``ledger.seal_written`` seals what this process wrote. ``flush`` does that at once,
    ``close`` flushes and stops. Either way the ledger hash signed is the one this process
    computed for what it wrote, not one read back. A seal that fails in the timer (the database
    away) is retried by the next ending, flush or close, and the first failure is reported on
    stderr; ``close`` raises it.
    """

    def __init__(self, ledger: Ledger, delay: float, *, start_timer: StartTimer = start_daemon_timer) -> None:
        self._ledger = ledger
        self._start_timer = start_timer
        self._half = delay / 2
        self._lock = threading.Lock()
        self._timer: Timer | None = None
        self._owed = 0  # the furthest ending position not yet known to be sealed
        self._due = False
        self._warned = False
        self._closed = False
        self._sealing = threading.Lock()  # one seal at a time: close waits for a timer's seal under way

    def ending_saved(self, position: int) -> None:
        with self._lock:
            self._owed = max(self._owed, position)
            if self._timer is None:
                self._arm(self._mark_due)

    def _arm(self, then: Callable[[], None]) -> None:
        """Called under the lock. Nothing is armed once closed: the ledger is going away."""
        if self._closed:
            return
        self._timer = self._start_timer(self._half, then)

    def _mark_due(self) -> None:
        with self._lock:
            self._due = True
            self._arm(self._fire)

    def take_due(self) -> bool:
        """Whether the append being written should seal (called under the writers' lock)."""
        if not self._due:
            return False
        self._due = False
        return True

    def _fire(self) -> None:
        with self._lock:
            self._timer = None
        try:
            self.flush()
        except Exception as exc:  # noqa: BLE001 - a timer thread has nobody to raise to; close() will
            if not self._warned:
                self._warned = True
                print(f"mai-safety: a deferred checkpoint could not be sealed yet: {exc}", file=sys.stderr)

    def flush(self) -> None:
        """Seal what this process wrote, unless a checkpoint covers every ending it owes already."""
        with self._sealing:
            with self._lock:
                owed, self._owed, self._due = self._owed, 0, False
            if not owed:
                return
            try:
                self._ledger.seal_written("execution ended", through=owed)
            except BaseException:
                with self._lock:
                    self._owed = max(self._owed, owed)
                raise

    def close(self) -> None:
        """Seal what is owed, with no timer left running and no seal under way when it returns (the
        ledger's connections close right after this: closing one while the timer's thread still
        executed on it crashed the process with SIGSEGV in SQLite's statement cache)."""
        with self._lock:
            self._closed = True
            timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
            timer.join()
        self.flush()


def sealer_for(policy: LedgerPolicy, clock: Clock = utc_now) -> CheckpointSealer:
    """The sealer a ledger's recorder is built with (ledger/infrastructure/factory.py)."""
    return CheckpointSealer(policy.rule, policy.keys, clock=clock, witnesses=policy.witnesses)


class LedgerSeals:
    """The sealing of one ledger under one policy: the sealer its recorder was built with, the
    deferred seals of endings (unless the policy seals them at once), and the witnesses."""

    def __init__(
        self,
        ledger: Ledger,
        policy: LedgerPolicy,
        sealer: CheckpointSealer,
        *,
        start_timer: StartTimer = start_daemon_timer,
    ) -> None:
        self._ledger = ledger
        self._witnesses = policy.witnesses
        self._ledger_id: str | None = None
        self.sealer = sealer
        self.deferred: DeferredSeals | None = None
        if not policy.rule.seals_endings_at_once:
            self.deferred = self.sealer.deferred = DeferredSeals(ledger, policy.rule.endings_within, start_timer=start_timer)
        if self._witnesses is not None:
            self._witnesses.attach(self.ledger_id, ledger.location())

    def ledger_id(self) -> str | None:
        """What names this ledger to its witnesses: the ledger hash at position 1 (which binds
        the first event, its execution id and time), None while the ledger is empty."""
        if self._ledger_id is None:
            first = self._ledger.ledger_hash_at(1)
            self._ledger_id = first.hex() if first is not None else None
        return self._ledger_id

    def flush(self, witness_timeout: float) -> None:
        if self.deferred is not None:
            self.deferred.flush()
        if self._witnesses is not None:
            self._witnesses.flush(witness_timeout)

    def close(self) -> None:
        try:
            if self.deferred is not None:
                self.deferred.close()
        finally:
            if self._witnesses is not None:
                self._witnesses.close()

    def seal_left_behind(self, awaiting_seal: Callable[[ChainRecord], bool]) -> Checkpoint | None:
        """Seal endings a stopped process left without their checkpoint, if the events after the
        newest checkpoint verify and the last ending is not young enough to be ``awaiting_seal``."""
        ledger = self._ledger
        if self.deferred is None:  # endings are sealed at once
            return None
        head = ledger.head()
        covered = head.checkpoint.position if head.checkpoint else 0
        if head.position <= covered:
            return None
        anchor = ledger.ledger_hash_at(covered) if covered else GENESIS
        if anchor is None:
            return None
        chain = ChainVerifier(covered, anchor, predecessor=ledger.event_hash_of, known_topics=LEDGER_TOPICS, ending_topics=ENDING_TOPICS)
        chain.check_all(ledger.iter_chain(covered, head.position))
        if not chain.intact or chain.last_ending is None or awaiting_seal(chain.last_ending):
            return None
        return ledger.seal("execution ended (sealed at the next start)")

    def seal_head(self) -> Checkpoint | None:
        """Seal the head if it is not yet covered; LedgerTampered when the ledger holds an event
        that does not verify (docs/decisions/0011)."""
        self.sealer.refusal = None
        found = self._ledger.seal("requested")
        refusal = self.sealer.refusal
        if refusal is not None:
            raise LedgerTampered(f"the ledger was not sealed past {refusal.describe()}: run `mai-safety audit verify`")
        return found


__all__ = [
    "CheckpointSealer",
    "DeferredSeals",
    "LedgerPolicy",
    "LedgerSeals",
    "LedgerWiring",
    "LedgerTampered",
    "StartTimer",
    "Timer",
    "sealer_for",
    "start_daemon_timer",
    "utc_now",
]
