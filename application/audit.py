"""The audit of the ledger: signed checkpoints, verification, forensic replay and export.

* **Sealing.** ``CheckpointSealer`` is handed to the ledger, which asks it inside every insert
  transaction (under the writers' lock) whether the new head needs a checkpoint: every N events,
  or on the first write T seconds after the last checkpoint, and when an execution ended (the
  save says so) if the policy seals endings at once. Otherwise ``DeferredSeals`` seals what this
  process wrote at most ``endings_within`` seconds after an ending, one signature for every
  ending of the interval, and before the service closes (docs/decisions/0009). So every
  finished execution lies under a signature at once or within that bound.
* **Verification** walks the ledger (all of it, a range, or one execution and what lies between
  it and the checkpoint that covers it) and its checkpoints together (domain.checkpoint).
* **Replay** rebuilds one execution from its verified events, as of any moment.
* **Export** writes a self-contained bundle (JSON lines) that ``verify_bundle`` checks anywhere,
  with no database: events, both hashes, checkpoints and the public key.
* **Output blobs.** Output kept out of an ending event is named there by its SHA-256: ``verify``
  checks that every blob named is in the store and hashes to its name, ``replay`` reads it back
  whole, and a bundle carries each blob once, checked the same way (docs/decisions/0014).
* **Event MACs and witnesses.** Every event the service appends carries a MAC under a key derived
  from its signing key; the ledger checks what it did not write before it seals, so a checkpoint
  never signs an event inserted by someone without the key. Every committed checkpoint also goes
  to the witnesses, and ``verify`` checks the ledger against the newest one they hold.

See docs/decisions/0007-signed-checkpoints.md, 0008-append-only-ledger-and-retention.md and
0011-event-macs-and-witnesses.md.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, TextIO
from uuid import UUID

from eventsourcing.persistence import Mapper, StoredEvent
from eventsourcing.utils import get_topic

from mai_safety.domain.chain import GENESIS, ChainRecord, ChainVerifier, EventMac, Problem, ProblemKind
from mai_safety.domain.checkpoint import (
    Checkpoint,
    CheckpointRule,
    LedgerVerifier,
    MacCheck,
    checkpoint_message,
    merge_by_position,
)
from mai_safety.domain.errors import MaiSafetyError
from mai_safety.domain.access import ApiToken
from mai_safety.domain.execution import Execution
from mai_safety.domain.output import DEFAULT_INLINE_BYTES, BlobReference, blob_sha256, references_in_state

from .blobs import BlobCheck, BlobFault, inspect_blob, store_lookup, with_full_output
from .errors import CannotVerify, ConfigurationError, ExecutionNotFound
from .ports import (
    BlobStore,
    ChainSource,
    KeyStore,
    Ledger,
    LedgerHead,
    PublicKey,
    Sealer,
    Signer,
    WitnessedCheckpoint,
    Witnesses,
)
from .reports import ReplayReport, VerificationReport

#: The keyword a save passes to the ledger when the execution it holds has ended.
SEAL = "seal"
BUNDLE_FORMAT = "mai-safety/ledger-bundle/v1"

EXECUTION_TOPICS = frozenset(
    get_topic(cls)
    for cls in vars(Execution).values()
    if isinstance(cls, type) and issubclass(cls, Execution.Event) and cls is not Execution.Event
)
ENDING_TOPICS = frozenset(get_topic(cls) for cls in (Execution.Completed, Execution.Terminated))
#: Grants and revocations of API tokens (domain.access) share the ledger with the executions.
ACCESS_TOPICS = frozenset(get_topic(cls) for cls in (ApiToken.TokenGranted, ApiToken.TokenRevoked))
#: Every event this service writes; anything else on the ledger is reported as unexpected.
LEDGER_TOPICS = EXECUTION_TOPICS | ACCESS_TOPICS
#: A bundle must lie wholly under its checkpoints: the export seals before it writes.
_BUNDLE_RULE = CheckpointRule(every_events=1, every_seconds=float("inf"))
#: How long a committed checkpoint may take to reach the witnesses before verify says one lags.
WITNESS_GRACE_SECONDS = 30.0


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


def _now() -> datetime:
    return datetime.now(timezone.utc)


class CheckpointSealer(Sealer):
    def __init__(
        self,
        rule: CheckpointRule,
        keys: KeyStore,
        clock: Callable[[], datetime] = _now,
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

    def __init__(self, ledger: Ledger, delay: float) -> None:
        self._ledger = ledger
        self._half = delay / 2
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
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
        self._timer = threading.Timer(self._half, then)
        self._timer.daemon = True
        self._timer.start()

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


class LedgerAudit:
    """The audit's commands and queries over one ledger. Built by the application; the CLI's
    ``audit`` commands call it. ``policy`` is None only where nothing is sealed (bare unit tests)."""

    def __init__(
        self, ledger: object, mapper: Mapper[UUID] | None, policy: LedgerPolicy | None, *, blobs: BlobStore | None = None
    ) -> None:
        self._ledger = ledger if isinstance(ledger, Ledger) else None
        self._blobs = blobs
        self._chain_source = ledger if isinstance(ledger, ChainSource) else None
        self._mapper = mapper
        self.policy = policy
        self._deferred: DeferredSeals | None = None
        self._sealer: CheckpointSealer | None = None
        self._witnesses = policy.witnesses if policy is not None else None
        self._ledger_id: str | None = None
        if self._ledger is not None and policy is not None:
            sealer = self._sealer = CheckpointSealer(policy.rule, policy.keys, witnesses=self._witnesses)
            if not policy.rule.seals_endings_at_once:
                self._deferred = sealer.deferred = DeferredSeals(self._ledger, policy.rule.endings_within)
            self._ledger.use_sealer(sealer)
            if self._witnesses is not None:
                self._witnesses.attach(self.ledger_id, self._ledger.location())

    def ledger_id(self) -> str | None:
        """What names this ledger to its witnesses: the ledger hash at position 1 (which binds
        the first event, its execution id and time), None while the ledger is empty."""
        if self._ledger_id is None and self._ledger is not None:
            first = self._ledger.ledger_hash_at(1)
            self._ledger_id = first.hex() if first is not None else None
        return self._ledger_id

    # --- sealing endings ------------------------------------------------------------------------

    @property
    def seals_endings_at_once(self) -> bool:
        """Whether a save that ends an execution must seal in its own transaction."""
        return self._ledger is not None and self._deferred is None

    def ending_saved(self, position: int) -> None:
        """An execution's ending was committed at ``position``: it is sealed within the policy's bound."""
        if self._deferred is not None:
            self._deferred.ending_saved(position)

    def flush(self, witness_timeout: float = 5.0) -> None:
        """Seal every ending still owed a checkpoint now, rather than within the policy's bound,
        and wait (a bounded time) for the witnesses to record the checkpoints made so far."""
        if self._deferred is not None:
            self._deferred.flush()
        if self._witnesses is not None:
            self._witnesses.flush(witness_timeout)

    def close(self) -> None:
        """Seal every ending still owed a checkpoint (the service is stopping), and give the
        witnesses a last, bounded, chance to record them."""
        try:
            if self._deferred is not None:
                self._deferred.close()
        finally:
            if self._witnesses is not None:
                self._witnesses.close()

    def seal_left_behind(self) -> Checkpoint | None:
        """At start: seal endings a stopped process left without their checkpoint, if the events
        after the newest checkpoint verify. What does not verify is left unsealed, for ``verify``
        to report. Returns the checkpoint made, if any."""
        ledger = self._ledger
        if ledger is None or self._deferred is None:  # no ledger, or endings sealed at once
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
        if not chain.intact or chain.last_ending is None or self._awaiting_seal(chain.last_ending):
            return None
        return ledger.seal("execution ended (sealed at the next start)")

    def _awaiting_seal(self, ending: ChainRecord) -> bool:
        """Whether this ending is young enough to be awaiting its deferred checkpoint."""
        if self.policy is None or self.policy.rule.seals_endings_at_once:
            return False
        try:
            ended_at = self._decode(ending).timestamp
        except Exception:  # noqa: BLE001 - an unreadable ending is not one awaiting anything
            return False
        age = (_now() - ended_at).total_seconds()
        return bool(-self.policy.rule.seal_margin <= age <= self.policy.rule.unsealed_ending_grace)

    # --- keys and checkpoints -------------------------------------------------------------------

    def public_key(self, *, create: bool = True) -> PublicKey | None:
        """The service's public key; with ``create`` the key pair is made if there is none yet."""
        if self.policy is None:
            return None
        return self.policy.keys.signer().public_key if create else self.policy.keys.public_key()

    def checkpoint(self, *, seal: bool = True) -> Checkpoint | None:
        """The newest checkpoint, after sealing the head if it is not yet covered. Raises
        LedgerTampered when the head cannot be sealed because the ledger holds an event that does
        not verify (docs/decisions/0011)."""
        ledger = self._require_ledger()
        if seal and self.policy is not None:
            if self._sealer is not None:
                self._sealer.refusal = None
            found = ledger.seal("requested")
            refusal = self._sealer.refusal if self._sealer is not None else None
            if refusal is not None:
                raise LedgerTampered(
                    f"the ledger was not sealed past {refusal.describe()}: run `mai-safety audit verify`"
                )
            return found
        return ledger.head().checkpoint

    def hashes_of(self, execution_id: str) -> dict[int, dict[str, Any]]:
        """Per version of that execution's events: its ledger position and both chain hashes (hex)."""
        if self._ledger is None:
            return {}
        return {
            record.version: {
                "position": record.position,
                "event_hash": record.event_hash.hex(),
                "ledger_hash": record.ledger_hash.hex(),
            }
            for record in self._ledger.select_execution(execution_id)
        }

    def protection(self) -> dict[str, Any] | None:
        """Whether the database itself refuses changes to the ledger (None where it cannot)."""
        return self._require_ledger().protection()

    def ledger_file(self) -> Any:
        """The ledger's file (a ``pathlib.Path``) where it is one (SQLite), else None."""
        return self._require_ledger().file_path()

    # --- verification ---------------------------------------------------------------------------

    def verify(
        self,
        *,
        from_position: int | None = None,
        to_position: int | None = None,
        execution: str | None = None,
        kept: Checkpoint | None = None,
        public_key: PublicKey | None = None,
    ) -> VerificationReport:
        ledger = self._require_ledger()
        key = public_key or self.public_key(create=False)
        whole = from_position is None and to_position is None and execution is None
        notes: list[str] = []
        problems: list[Problem] = []
        # The witnesses first: a checkpoint committed meanwhile is then in the ledger's snapshot too.
        witnessed = self._newest_witnessed(key, notes, problems) if whole else None
        head = ledger.head()
        if whole:
            self._witness_lag(head, witnessed, notes)
        anchor = witnessed.checkpoint if witnessed is not None else None
        start, end, reached_head = self._range(ledger, head, from_position, to_position, execution, kept, anchor)
        verifier = self._verifier(
            ledger,
            start,
            key,
            kept=kept,
            witnessed=witnessed,
            mac_valid=self._mac_check(key, notes),
        )
        blob_check = self._blob_check()
        records = blob_check.tap(ledger.iter_chain(start - 1, end))
        verifier.walk(records, self._checkpoints(ledger, head, start, end, reached_head))
        verifier.finish(reached_head=reached_head)
        problems.extend(blob_check.problems())
        scope = {"from": start, "to": end, "execution": execution, "reached_head": reached_head}
        if kept is not None:
            scope["kept_checkpoint"] = kept.sequence
        if verifier.macs_unchecked:
            notes.insert(
                0,
                "event MACs were not checked: that needs the private key, which this machine does not hold; "
                "the chains and the signatures were, and every checkpoint since MACs began was signed only "
                "over events whose MACs the service checked",
            )
        if verifier.pre_mac_tail is not None:
            first, last, count = verifier.pre_mac_tail
            notes.append(
                f"{count} event(s) at positions {first}..{last}, after the newest checkpoint, carry no MAC: written by a "
                "version from before event MACs; the next seal adopts them, and from then on every event needs one"
            )
        return _report(
            verifier,
            scope,
            key,
            head_hash=head.ledger_hash if reached_head else None,
            notes=notes,
            extra=problems,
            witnessed=witnessed,
            blobs=blob_check,
        )

    def _blob_check(self) -> BlobCheck:
        return BlobCheck(store_lookup(self._blobs) if self._blobs is not None else None, ENDING_TOPICS)

    def _mac_check(self, key: PublicKey | None, notes: list[str]) -> MacCheck | None:
        """Event MACs are checked where the private key is at hand (and is the trusted key)."""
        if self.policy is None:
            return None
        signer = self.policy.keys.signer_if_present()
        if signer is None or key is None or signer.public_key.key_id != key.key_id:
            return None
        return EventMac(signer.mac_key()).valid

    def _newest_witnessed(
        self, key: PublicKey | None, notes: list[str], problems: list[Problem]
    ) -> WitnessedCheckpoint | None:
        """The newest checkpoint of this ledger a witness holds with a valid signature; entries
        for this ledger that do not verify are problems (someone else wrote the witness)."""
        witnesses = self._witnesses
        ledger_id = self.ledger_id()
        if witnesses is None or ledger_id is None:
            return None
        found = sorted(witnesses.recorded(ledger_id), key=lambda item: item.checkpoint.sequence, reverse=True)
        newest: WitnessedCheckpoint | None = None
        for item in found:
            checkpoint = item.checkpoint
            if key is not None and (checkpoint.key_id != key.key_id or not key.verify(checkpoint.message(), checkpoint.signature)):
                problems.append(
                    Problem(
                        ProblemKind.BAD_SIGNATURE,
                        f"bad signature: {item.witness} holds a checkpoint #{checkpoint.sequence} for this ledger that "
                        "does not verify: the witness was written by someone else",
                        checkpoint.position,
                        checkpoint=checkpoint.sequence,
                    )
                )
                continue
            newest = item
            break
        notes.extend(f"witness {failure}" for failure in witnesses.failures(ledger_id))
        location = self._require_ledger().location()
        others = witnesses.other_ledgers_at(location, ledger_id)
        if others:
            notes.append(
                f"a witness recorded checkpoints of {len(others)} other ledger(s) at {location} "
                f"({', '.join(other[:16] for other in others)}…): this ledger replaced one, or shares its place"
            )
        return newest

    def _witness_lag(self, head: LedgerHead, newest: WitnessedCheckpoint | None, notes: list[str]) -> None:
        witnesses = self._witnesses
        if witnesses is None or not witnesses.readable() or self.ledger_id() is None:
            return
        ours = head.checkpoint
        if ours is not None and (newest is None or ours.sequence > newest.checkpoint.sequence):
            signed = ours.signed_time
            age = (_now() - signed).total_seconds() if signed is not None and signed.tzinfo else None
            if age is None or age > WITNESS_GRACE_SECONDS:
                held = f"the newest it holds is #{newest.checkpoint.sequence}" if newest else "it holds none of this ledger"
                notes.append(
                    f"the witnesses have not recorded checkpoint #{ours.sequence} ({held}): a witness write failed, "
                    "or the checkpoints were made where no witness is configured"
                )

    def _range(
        self,
        ledger: Ledger,
        head: LedgerHead,
        from_position: int | None,
        to_position: int | None,
        execution: str | None,
        kept: Checkpoint | None,
        witnessed: Checkpoint | None = None,
    ) -> tuple[int, int, bool]:
        """Where the walk starts and ends: it always runs on to the checkpoint covering its end."""
        if execution is not None:
            records = ledger.select_execution(_execution_id(execution))
            if not records:
                raise ExecutionNotFound(f"no execution {execution} in this ledger: check the id")
            start = min(record.position for record in records)
            end = max(record.position for record in records)
        else:
            start = from_position if from_position is not None else 1
            end = to_position if to_position is not None else head.position
            if start < 1 or end < 0:
                raise CannotVerify("--from and --to are ledger positions, counted from 1")
            if to_position is not None and end < start:
                raise CannotVerify(f"--from {start} is after --to {end}: nothing to check")
        end = min(end, head.position)
        for anchor in (kept, witnessed):
            if anchor is not None:
                end = max(end, min(anchor.position, head.position))
        if end < head.position:
            cover = ledger.checkpoint_covering(end)
            newest = head.checkpoint.sequence if head.checkpoint else 0
            if cover is not None and cover.sequence <= newest:
                end = min(max(end, cover.position), head.position)
        return start, end, end >= head.position

    @staticmethod
    def _checkpoints(ledger: Ledger, head: LedgerHead, start: int, end: int, reached_head: bool) -> Iterable[Checkpoint]:
        newest = head.checkpoint.sequence if head.checkpoint else 0
        for checkpoint in ledger.iter_checkpoints(from_position=start, up_to_sequence=newest):
            if reached_head or checkpoint.position <= end:
                yield checkpoint

    def _verifier(
        self,
        ledger: Ledger,
        start: int,
        key: PublicKey | None,
        *,
        kept: Checkpoint | None = None,
        witnessed: WitnessedCheckpoint | None = None,
        mac_valid: MacCheck | None = None,
    ) -> LedgerVerifier:
        anchor = GENESIS
        missing_anchor = False
        if start > 1:
            found = ledger.ledger_hash_at(start - 1)
            missing_anchor = found is None
            anchor = found or GENESIS
        chain = ChainVerifier(
            start - 1,
            anchor,
            predecessor=ledger.event_hash_of if start > 1 else None,
            known_topics=LEDGER_TOPICS,
            ending_topics=ENDING_TOPICS,
        )
        if missing_anchor:
            chain.problems.append(
                Problem(
                    ProblemKind.MISSING_POSITION,
                    f"missing position: {start - 1}, the event before the checked range, is not in the ledger",
                    start - 1,
                )
            )
        return LedgerVerifier(
            chain,
            trusted_key_id=key.key_id if key else None,
            signature_valid=_signature_check(key),
            previous=ledger.checkpoint_before(start) if start > 1 else None,
            from_start=start == 1,
            rule=self.policy.rule if self.policy is not None else None,
            kept=kept,
            same_signature=ledger.checkpoint_with_signature,
            awaiting_seal=self._awaiting_seal,
            witnessed=witnessed.checkpoint if witnessed is not None else None,
            witness=witnessed.witness if witnessed is not None else "the witness",
            macs_recorded=True,
            mac_valid=mac_valid,
        )

    # --- forensic replay ------------------------------------------------------------------------

    def replay(self, execution_id: str, as_of: datetime | None = None) -> ReplayReport:
        ledger = self._require_ledger()
        verification = self.verify(execution=execution_id)
        identifier = _execution_id(execution_id)
        flagged = {detail["version"] for detail in verification.details if detail["execution"] == identifier}
        timeline: list[dict[str, Any]] = []
        events: list[Any] = []
        for record in ledger.select_execution(identifier):
            entry: dict[str, Any] = {
                "position": record.position,
                "version": record.version,
                "event": record.event_name,
                "verified": record.version not in flagged,
            }
            try:
                event = self._decode(record)
            except Exception as exc:  # noqa: BLE001 - a tampered state may be anything; say so and go on
                timeline.append({**entry, "error": f"the stored state cannot be read: {type(exc).__name__}: {exc}"})
                continue
            if as_of is not None and event.timestamp > as_of:
                break
            events.append(event)
            fields = _event_fields(event)
            if isinstance(fields.get("outcome"), dict):
                fields["outcome"] = with_full_output(fields["outcome"], self._blobs)
            timeline.append({**entry, **fields})
        if not events:
            when = f" by {as_of.isoformat()}" if as_of else ""
            raise ExecutionNotFound(f"nothing was recorded for execution {identifier}{when}")
        return _replay_report(identifier, as_of, events, timeline, verification)

    def _decode(self, record: ChainRecord) -> Any:
        assert self._mapper is not None and record.state is not None
        stored = StoredEvent(
            originator_id=UUID(record.originator_id),
            originator_version=record.version,
            topic=record.topic,
            state=record.state,
        )
        return self._mapper.to_domain_event(stored)

    # --- export ---------------------------------------------------------------------------------

    def export(
        self,
        out: TextIO,
        *,
        execution: str | None = None,
        from_position: int | None = None,
        to_position: int | None = None,
    ) -> VerificationReport:
        """Write a bundle to ``out``; the events are verified as they are written, and the report
        says what was found. The head is sealed first, so the bundle ends under a signature."""
        ledger = self._require_ledger()
        sealed = ledger.seal("export") if self.policy is not None else None
        key = self.public_key(create=False)
        head = ledger.head()
        if to_position is None and sealed is not None and (from_position or 1) <= sealed.position:
            # Up to what was just sealed: events a busy service appends meanwhile wait for the next export.
            to_position = sealed.position
        identifier = _execution_id(execution) if execution is not None else None
        start, end, _ = self._range(ledger, head, from_position, to_position, identifier, None)
        verifier = self._verifier(ledger, start, key, mac_valid=self._mac_check(key, []))
        previous = ledger.checkpoint_before(start) if start > 1 else None
        header: dict[str, Any] = {
            "type": "header",
            "format": BUNDLE_FORMAT,
            "created_at": _now().isoformat(timespec="seconds"),
            "scope": {"execution": identifier, "from": start, "to": end},
            "public_key": {"key_id": key.key_id, "pem": key.to_pem()} if key else None,
            "anchor": {"position": start - 1, "ledger_hash": verifier.chain.head[1].hex()},
            "previous_checkpoint": previous.to_dict() if previous else None,
        }
        _write(out, header)
        seen: set[str] = set()
        counts = {"events": 0, "redacted": 0, "checkpoints": 0, "blobs": 0}
        # Each blob is read once: what was found while writing it is what the check reports.
        exported: dict[BlobReference, BlobFault] = {}
        blob_check = BlobCheck(exported.get if self._blobs is not None else None, ENDING_TOPICS)
        checkpoints = self._checkpoints(ledger, head, start, end, reached_head=False)
        for item in merge_by_position(ledger.iter_chain(start - 1, end), checkpoints):
            if isinstance(item, Checkpoint):
                _write(out, {"type": "checkpoint", **item.to_dict()})
                counts["checkpoints"] += 1
                verifier.check_checkpoint(item)
                continue
            if identifier is not None and item.originator_id != identifier:
                _write(
                    out,
                    {"type": "redacted", "position": item.position, "event_hash": item.event_hash.hex(), "ledger_hash": item.ledger_hash.hex()},
                )
                counts["redacted"] += 1
            else:
                if item.version > 1 and item.originator_id not in seen:
                    before = ledger.event_hash_of(item.originator_id, item.version - 1)
                    if before is not None:
                        _write(
                            out,
                            {"type": "predecessor", "execution": item.originator_id, "version": item.version - 1, "event_hash": before.hex()},
                        )
                seen.add(item.originator_id)
                counts["blobs"] += self._write_blobs(out, item, exported)
                blob_check.note(item)
                _write(out, _record_line(item))
                counts["events"] += 1
            verifier.check_record(item)
        _write(out, {"type": "end", **counts})
        verifier.finish(reached_head=False)
        return _report(
            verifier,
            {**header["scope"], "exported": counts},
            key,
            head_hash=None,
            extra=blob_check.problems(),
            blobs=blob_check,
        )

    def _write_blobs(self, out: TextIO, record: ChainRecord, exported: dict[BlobReference, BlobFault]) -> int:
        """Before an ending that names blobs, each of them not yet in the bundle, as the store
        holds it, sound or not (the bundle keeps the evidence; ``exported`` notes what is wrong
        for the export's report). A missing blob is left out. Returns how many were written."""
        if record.topic not in ENDING_TOPICS or record.state is None or self._blobs is None:
            return 0
        try:
            named = references_in_state(record.state)
        except ValueError:
            return 0  # a malformed reference: the export's blob check reports it
        count = 0
        for _, reference in named:
            if reference in exported:
                continue
            data, exported[reference] = inspect_blob(self._blobs, reference)
            if data is not None:
                _write(out, _blob_line(reference, data))
                count += 1
        return count

    # --- retention ------------------------------------------------------------------------------

    def archive_plan(self, after_position: int, older_than: datetime) -> Checkpoint | None:
        """The newest checkpoint signed before ``older_than`` past ``after_position``: the end of
        the next range to archive (None when there is nothing old enough yet)."""
        ledger = self._require_ledger()
        best: Checkpoint | None = None
        for checkpoint in ledger.iter_checkpoints(from_position=after_position + 1):
            if datetime.fromisoformat(checkpoint.signed_at) >= older_than:
                break
            best = checkpoint
        return best

    def _require_ledger(self) -> Ledger:
        if self._ledger is None:
            raise ConfigurationError("this event store keeps no chain hashes: use the SQLite or Postgres ledger")
        return self._ledger


# --- bundles, checked anywhere ---------------------------------------------------------------------


def verify_bundle(lines: Iterable[str], keys: KeyStore, public_key: PublicKey | None = None) -> VerificationReport:
    """Check a bundle written by ``LedgerAudit.export`` with no database. The bundle's own public
    key is used unless one is pinned (``public_key``); the report's scope says which."""
    numbered = enumerate(lines, start=1)
    header = _parse(next(numbered, (1, ""))[1], 1)
    if header.get("type") != "header" or header.get("format") != BUNDLE_FORMAT:
        raise CannotVerify(f"this is not a mai-safety ledger bundle ({BUNDLE_FORMAT}): check the file")
    try:
        embedded = header.get("public_key")
        key = public_key or (keys.public_key_from_pem(embedded["pem"], "the bundle") if embedded else None)
        anchor_position = int(header["anchor"]["position"])
        anchor_hash = bytes.fromhex(header["anchor"]["ledger_hash"])
        previous = Checkpoint.from_dict(header["previous_checkpoint"]) if header.get("previous_checkpoint") else None
    except (KeyError, TypeError, ValueError) as exc:
        raise CannotVerify(f"the bundle's header is malformed ({type(exc).__name__}: {exc})") from None
    predecessors: dict[tuple[str, int], bytes] = {}
    signatures: dict[bytes, int] = {}
    chain = ChainVerifier(
        anchor_position,
        anchor_hash,
        predecessor=lambda execution, version: predecessors.get((execution, version)),
        known_topics=LEDGER_TOPICS,
        ending_topics=ENDING_TOPICS,
    )
    verifier = LedgerVerifier(
        chain,
        trusted_key_id=key.key_id if key else None,
        signature_valid=_signature_check(key),
        previous=previous,
        from_start=anchor_position == 0,
        rule=_BUNDLE_RULE,
        same_signature=lambda signature, sequence: (
            signatures[signature] if signatures.get(signature, sequence) != sequence else None
        ),
    )
    counts = {"events": 0, "redacted": 0, "checkpoints": 0, "blobs": 0}
    carried: dict[BlobReference, BlobFault] = {}  # the bundle's blobs, checked as they are read
    blob_check = BlobCheck(lambda reference: carried.get(reference, _NOT_CARRIED), ENDING_TOPICS)
    ended: dict[str, Any] | None = None
    for number, line in numbered:
        if not line.strip():
            continue
        item = _parse(line, number)
        if ended is not None:
            raise CannotVerify(f"line {number} of the bundle comes after its end line: the file was altered")
        try:
            kind = item["type"]
            if kind == "event":
                record = _record_from_line(item)
                blob_check.note(record)
                verifier.check_record(record)
                counts["events"] += 1
            elif kind == "blob":
                reference, fault = _blob_from_line(item)
                carried[reference] = fault
                counts["blobs"] += 1
            elif kind == "redacted":
                verifier.check_record(
                    ChainRecord(
                        int(item["position"]), "", 0, "", None, bytes.fromhex(item["event_hash"]), bytes.fromhex(item["ledger_hash"])
                    )
                )
                counts["redacted"] += 1
            elif kind == "predecessor":
                predecessors[(str(item["execution"]), int(item["version"]))] = bytes.fromhex(item["event_hash"])
            elif kind == "checkpoint":
                checkpoint = Checkpoint.from_dict(item)
                verifier.check_checkpoint(checkpoint)
                signatures.setdefault(checkpoint.signature, checkpoint.sequence)
                counts["checkpoints"] += 1
            elif kind == "end":
                ended = item
            else:
                raise ValueError(f"unknown line type {kind!r}")
        except (KeyError, TypeError, ValueError) as exc:
            raise CannotVerify(f"line {number} of the bundle is malformed ({type(exc).__name__}: {exc})") from None
    verifier.finish(reached_head=True)
    report = _report(
        verifier,
        {**header.get("scope", {}), "bundle": True, "key_source": "pinned" if public_key else "bundle"},
        key,
        head_hash=None,
        extra=blob_check.problems(),
        notes=[
            "event MACs were not checked: a bundle carries none (they need the private key); every event in it "
            "lies under a signed checkpoint, and each checkpoint since MACs began was signed only over events "
            "whose MACs the service checked"
        ],
    )
    extra = _bundle_completeness(ended, counts)
    if extra is None:
        return report
    return _with_problem(report, extra)


def _bundle_completeness(ended: dict[str, Any] | None, counts: dict[str, int]) -> Problem | None:
    if ended is None:
        return Problem(ProblemKind.TAIL_TRUNCATED, "tail truncated: the bundle has no end line: it was cut short")
    if "blobs" not in ended and not counts["blobs"]:
        counts = {key: value for key, value in counts.items() if key != "blobs"}  # a bundle from before blobs
    stated = {key: ended.get(key) for key in counts}
    if stated != counts:
        return Problem(
            ProblemKind.TAIL_TRUNCATED,
            f"the bundle's end line states {stated} but it holds {counts}: lines were removed or added",
        )
    return None


# --- helpers ---------------------------------------------------------------------------------------


def _execution_id(execution: str) -> str:
    try:
        return str(UUID(str(execution)))
    except ValueError:
        raise ExecutionNotFound(f"{execution!r} is not an execution id (a UUID)") from None


def _signature_check(key: PublicKey | None) -> Callable[[Checkpoint], bool] | None:
    if key is None:
        return None
    return lambda checkpoint: key.verify(checkpoint.message(), checkpoint.signature)


def _report(
    verifier: LedgerVerifier,
    scope: dict[str, Any],
    key: PublicKey | None,
    *,
    head_hash: bytes | None,
    notes: list[str] | None = None,
    extra: list[Problem] | None = None,
    witnessed: WitnessedCheckpoint | None = None,
    blobs: BlobCheck | None = None,
) -> VerificationReport:
    problems = [*verifier.problems, *(extra or [])]
    position, last_hash = verifier.chain.head
    unchecked = []
    if verifier.signatures_unchecked:
        unchecked.append(
            "checkpoint signatures: there is no public key (the signing key file is missing): "
            "pass --public-key FILE, exported with `mai-safety audit public-key`"
        )
    if blobs is not None and blobs.unchecked:
        unchecked.append(f"output blobs: {blobs.unchecked} reference(s) to output kept as a blob, and no blob store here")
    return VerificationReport(
        intact=not problems,
        checked=verifier.chain.checked,
        head_position=position,
        head_hash=(head_hash or last_hash).hex(),
        problems=[problem.describe() for problem in problems],
        details=[problem.to_dict() for problem in problems],
        scope=scope,
        checkpoints=verifier.checkpoints_checked,
        signatures=verifier.signatures_checked,
        newest_checkpoint=verifier.newest.to_dict() if verifier.newest else None,
        key_id=key.key_id if key else None,
        complete=not unchecked,
        unchecked=unchecked,
        awaiting_seal=verifier.awaiting_seal.position if verifier.awaiting_seal else None,
        macs=verifier.macs_checked,
        witnessed=(
            {"witness": witnessed.witness, "sequence": witnessed.checkpoint.sequence, "position": witnessed.checkpoint.position}
            if witnessed is not None
            else None
        ),
        notes=list(notes or []),
    )


def _with_problem(report: VerificationReport, problem: Problem) -> VerificationReport:
    data = report.to_dict()
    data.update(
        intact=False,
        problems=[*report.problems, problem.describe()],
        details=[*report.details, problem.to_dict()],
    )
    return VerificationReport(**data)


def _write(out: TextIO, item: dict[str, Any]) -> None:
    out.write(json.dumps(item, separators=(",", ":")) + "\n")


def _parse(line: str, number: int) -> dict[str, Any]:
    try:
        item = json.loads(line)
    except json.JSONDecodeError as exc:
        raise CannotVerify(f"line {number} of the bundle is not JSON ({exc.msg}): the file is damaged") from None
    if not isinstance(item, dict):
        raise CannotVerify(f"line {number} of the bundle is not a JSON object: the file is damaged")
    return item


def _record_line(record: ChainRecord) -> dict[str, Any]:
    assert record.state is not None
    return {
        "type": "event",
        "position": record.position,
        "execution": record.originator_id,
        "version": record.version,
        "topic": record.topic,
        "state": base64.b64encode(record.state).decode("ascii"),
        "event_hash": record.event_hash.hex(),
        "ledger_hash": record.ledger_hash.hex(),
    }


_NOT_CARRIED: BlobFault = (
    ProblemKind.BLOB_MISSING,
    "blob missing: the bundle does not carry the blob the event names: a line was removed",
)


def _blob_line(reference: BlobReference, data: bytes) -> dict[str, Any]:
    return {"type": "blob", "sha256": reference.sha256, "bytes": reference.size, "data": base64.b64encode(data).decode("ascii")}


def _blob_from_line(item: dict[str, Any]) -> tuple[BlobReference, BlobFault]:
    """The blob a bundle line carries, checked against its own name and size."""
    reference = BlobReference.from_dict({"sha256": item["sha256"], "bytes": item["bytes"]})
    data = base64.b64decode(item["data"], validate=True)
    if len(data) != reference.size or blob_sha256(data) != reference.sha256:
        return reference, (
            ProblemKind.BLOB_MISMATCH,
            f"blob mismatch: the bundle's blob {reference.sha256[:16]}… holds {len(data)} bytes hashing to "
            f"{blob_sha256(data)[:16]}…: it was changed",
        )
    return reference, None


def _record_from_line(item: dict[str, Any]) -> ChainRecord:
    return ChainRecord(
        position=int(item["position"]),
        originator_id=str(item["execution"]),
        version=int(item["version"]),
        topic=str(item["topic"]),
        state=base64.b64decode(item["state"], validate=True),
        event_hash=bytes.fromhex(item["event_hash"]),
        ledger_hash=bytes.fromhex(item["ledger_hash"]),
    )


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if hasattr(value, "value") and not isinstance(value, (str, int, float, bool)):
        return _plain(value.value)  # enums
    return value


def _event_fields(event: Any) -> dict[str, Any]:
    skip = {"originator_id", "originator_version", "originator_topic", "timestamp"}
    fields = {key: _plain(value) for key, value in vars(event).items() if key not in skip}
    return {"timestamp": event.timestamp.isoformat(), **fields}


_DECISIONS = {"OverrideRequested", "Overridden"}
_DECIDED_ENDINGS = {"denied", "no_answer", "cancelled"}


def _replay_report(
    identifier: str,
    as_of: datetime | None,
    events: list[Any],
    timeline: list[dict[str, Any]],
    verification: VerificationReport,
) -> ReplayReport:
    by_name: dict[str, list[dict[str, Any]]] = {}
    for entry in timeline:
        if "error" not in entry:
            by_name.setdefault(entry["event"], []).append(entry)
    assessed = (by_name.get("Assessed") or [{}])[0]
    code = assessed.get("code")
    recorded_sha = assessed.get("code_sha256")
    matches = None
    if isinstance(code, str) and isinstance(recorded_sha, str):
        matches = hashlib.sha256(code.encode("utf-8")).hexdigest() == recorded_sha
    problems = list(verification.problems)
    intact = verification.intact
    if matches is False:
        intact = False
        problems.append(
            f"execution {identifier} event 1 (Assessed): code hash mismatch: the recorded code does not hash to "
            f"its recorded SHA-256 {recorded_sha}"
        )
    decisions = [
        entry
        for entry in timeline
        if entry.get("event") in _DECISIONS
        or (entry.get("event") == "Terminated" and entry.get("reason") in _DECIDED_ENDINGS)
    ]
    ending = next((entry for entry in reversed(timeline) if entry.get("event") in ("Completed", "Terminated")), None)
    starts = by_name.get("Started", [])
    started = starts[-1] if starts else None
    status, state_error = _rebuild(events)
    newest = verification.newest_checkpoint
    last_position = max(entry["position"] for entry in timeline)
    covered = newest if newest and int(newest["position"]) >= last_position else None
    if state_error:
        problems.append(f"execution {identifier}: its state could not be rebuilt: {state_error}")
    return ReplayReport(
        execution_id=identifier,
        as_of=as_of.isoformat() if as_of else None,
        intact=intact,
        problems=problems,
        covered_by=covered,
        status=status,
        code=code,
        code_sha256=recorded_sha,
        code_sha256_matches=matches,
        level=assessed.get("level"),
        provenance=assessed.get("provenance"),
        findings=list(assessed.get("findings") or []),
        decisions=decisions,
        run=started,
        samples=[entry.get("sample", {}) for entry in by_name.get("ResourceSampled", [])],
        ending=ending,
        timeline=timeline,
        verification=verification,
    )


def _rebuild(events: list[Any]) -> tuple[str | None, str | None]:
    """The execution's status after these events, rebuilt the way the repository does."""
    aggregate = None
    try:
        for event in events:
            aggregate = event.mutate(aggregate)
    except Exception as exc:  # noqa: BLE001 - a forged or altered event may break the rebuild; report it
        return None, f"{type(exc).__name__}: {exc}"
    status = getattr(aggregate, "status", None)
    return (status.value if status is not None else None), None


__all__ = [
    "BUNDLE_FORMAT",
    "CheckpointSealer",
    "ENDING_TOPICS",
    "EXECUTION_TOPICS",
    "LEDGER_TOPICS",
    "LedgerAudit",
    "LedgerPolicy",
    "LedgerTampered",
    "SEAL",
    "verify_bundle",
]
