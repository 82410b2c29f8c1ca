"""What both chained recorders share: hashing a batch of events being inserted, reading rows, and
checking what the writer did not write itself before it seals (docs/decisions/0011)."""

from __future__ import annotations

import hashlib
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple
from uuid import UUID

from eventsourcing.persistence import IntegrityError, StoredEvent
from mai_safety.ledger.application.ports import Sealer
from mai_safety.ledger.domain.chain import GENESIS, ChainRecord, EventMac, Problem, ProblemKind, event_hash, ledger_hash
from mai_safety.ledger.domain.checkpoint import Checkpoint


def canonical_id(originator_id: UUID | str) -> str:
    """The execution id as hashed: the hyphenated UUID text, whatever the column type."""
    return str(originator_id if isinstance(originator_id, UUID) else UUID(str(originator_id)))


class ChainedRow(NamedTuple):
    stored: StoredEvent
    originator: str  # the execution id as hashed (canonical_id)
    position: int
    event_hash: bytes
    ledger_hash: bytes

    def mac(self, key: EventMac | None) -> bytes | None:
        if key is None:
            return None
        return key.of(self.position, self.originator, self.stored.originator_version, self.event_hash, self.ledger_hash)


def chain_batch(
    stored_events: Sequence[StoredEvent],
    head: tuple[int, bytes] | None,
    previous_event_hash: Callable[[UUID | str, int], bytes | None],
) -> list[ChainedRow]:
    """Hash a batch in order, continuing the ledger from ``head`` and each execution from its last event.

    ``previous_event_hash(execution_id, version)`` returns the stored hash of that version or None;
    the id is given as hashed (``canonical_id``).
    """
    position, ledger_head = head if head is not None else (0, GENESIS)
    in_batch: dict[str, tuple[int, bytes]] = {}
    rows: list[ChainedRow] = []
    for stored in stored_events:
        originator = canonical_id(stored.originator_id)
        version = stored.originator_version
        if originator in in_batch and in_batch[originator][0] == version - 1:
            previous = in_batch[originator][1]
        elif version == 1:
            previous = GENESIS
        else:
            found = previous_event_hash(originator, version - 1)
            if found is None:
                raise IntegrityError(f"event {version} of {originator} has no stored predecessor to chain to")
            previous = found
        digest = event_hash(previous, stored.topic, originator, version, stored.state)
        position += 1
        ledger_head = ledger_hash(ledger_head, position, digest)
        in_batch[originator] = (version, digest)
        rows.append(ChainedRow(stored, originator, position, digest, ledger_head))
    return rows



#: The checkpoint table's columns, in the order ``checkpoint_from_row`` reads them. The last two
#: came with event MACs: a row from before has encoding 1 and no ``macs_from``.
CHECKPOINT_COLUMNS = (
    "sequence, ledger_position, ledger_hash, signed_at, reason, key_id, previous, signature, format_version, macs_from"
)
#: Columns added to tables made before event MACs: (table suffix, column, SQLite type, Postgres type).
ADDED_COLUMNS = (
    ("", "event_mac", "BLOB", "bytea"),
    ("_checkpoints", "format_version", "INTEGER NOT NULL DEFAULT 1", "integer NOT NULL DEFAULT 1"),
    ("_checkpoints", "macs_from", "INTEGER", "bigint"),
)


def checkpoint_from_row(row: Sequence[Any]) -> Checkpoint:
    return Checkpoint(
        sequence=int(row[0]),
        position=int(row[1]),
        ledger_hash=bytes(row[2]),
        signed_at=str(row[3]),
        reason=str(row[4]),
        key_id=str(row[5]),
        previous=bytes(row[6]),
        signature=bytes(row[7]),
        version=int(row[8]) if row[8] is not None else 1,
        macs_from=int(row[9]) if row[9] is not None else None,
    )


def checkpoint_params(checkpoint: Checkpoint) -> tuple[Any, ...]:
    return (
        checkpoint.sequence,
        checkpoint.position,
        checkpoint.ledger_hash,
        checkpoint.signed_at,
        checkpoint.reason,
        checkpoint.key_id,
        checkpoint.previous,
        checkpoint.signature,
        checkpoint.version,
        checkpoint.macs_from,
    )


def advisory_lock_key(qualified_table: str) -> int:
    """A stable 64-bit key naming the writers' lock of one events table."""
    digest = hashlib.sha256(b"mai-safety/ledger-writers/" + qualified_table.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class WrittenHashes:
    """The event hashes this process committed most recently, by execution and version.

    The next event of an execution is nearly always written by the process that wrote the one
    before, so its predecessor's hash is taken from here instead of from the database. Only
    committed writes are remembered, and the ledger is append-only, so an entry never goes stale.
    """

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._hashes: dict[tuple[str, int], bytes] = {}
        self._lock = threading.Lock()

    def get(self, execution_id: str, version: int) -> bytes | None:
        """``execution_id`` as hashed (``canonical_id``)."""
        return self._hashes.get((execution_id, version))

    def remember(self, rows: Sequence[ChainedRow]) -> None:
        with self._lock:
            hashes = self._hashes
            for row in rows:
                hashes[(row.originator, row.stored.originator_version)] = row.event_hash
            while len(hashes) > self._size:
                del hashes[next(iter(hashes))]


class OwnHead:
    """The furthest ledger position this process has committed, with the ledger hash it computed
    for it: what a deferred seal signs, so that the signature vouches for what was written rather
    than for whatever the database holds by the time the seal is made."""

    def __init__(self) -> None:
        self._head: tuple[int, bytes] | None = None
        self._lock = threading.Lock()

    def get(self) -> tuple[int, bytes] | None:
        return self._head

    def remember(self, rows: Sequence[ChainedRow]) -> None:
        if not rows:
            return
        with self._lock:
            if self._head is None or rows[-1].position > self._head[0]:
                self._head = (rows[-1].position, rows[-1].ledger_hash)


class NewestCheckpoint:
    """The newest checkpoint as this process last knew it.

    Under the writers' lock each append learns the newest checkpoint's sequence from the database
    and reads the checkpoint itself only when it is not the one known here (another process sealed
    meanwhile): a writer usually sealed the newest itself. Only committed checkpoints are kept.
    """

    def __init__(self) -> None:
        self._known: Checkpoint | None = None

    def get(self, sequence: int | None, read: Callable[[int], Checkpoint | None]) -> Checkpoint | None:
        if sequence is None:
            return None
        known = self._known
        if known is not None and known.sequence == sequence:
            return known
        found = read(sequence)
        self.remember(found)
        return found

    def remember(self, checkpoint: Checkpoint | None) -> None:
        if checkpoint is not None and (self._known is None or checkpoint.sequence >= self._known.sequence):
            self._known = checkpoint

    @property
    def position(self) -> int | None:
        """The position the newest known checkpoint signs."""
        known = self._known
        return known.position if known is not None else None


def covers(checkpoint_position: int | None, through: int | None) -> bool:
    """Whether a checkpoint signing ``checkpoint_position`` covers position ``through``."""
    return through is not None and checkpoint_position is not None and checkpoint_position >= through


class Verified:
    """How far this process knows the ledger to be sound: every event up to ``get()[0]`` carries a
    valid MAC and the ledger chain runs unbroken to the hash ``get()[1]`` from a checkpoint it
    trusts. It grows with the events this process appends right after it, and with what a seal
    checks. ``blocked`` is the first event that failed: no seal of this process passes it, ever
    (the ledger is append-only; the event stays where it is)."""

    def __init__(self) -> None:
        self._head: tuple[int, bytes] = (0, GENESIS)
        self._lock = threading.Lock()
        self.blocked: Problem | None = None

    def get(self) -> tuple[int, bytes]:
        return self._head

    def advance(self, head_before: tuple[int, bytes] | None, rows: Sequence[ChainedRow]) -> None:
        """After a commit: the rows appended after ``head_before`` are sound if it was."""
        if not rows:
            return
        with self._lock:
            if self._head == (head_before or (0, GENESIS)):
                self._head = (rows[-1].position, rows[-1].ledger_hash)

    def raise_to(self, head: tuple[int, bytes] | None) -> None:
        if head is None:
            return
        with self._lock:
            if head[0] > self._head[0]:
                self._head = head


#: Reads the records with ``after < position <= up_to``, in order, with their MACs (state not needed).
FetchRecords = Callable[[int, int], list[ChainRecord]]


def guarded_seal(
    sealer: Sealer,
    verified: Verified,
    last: Checkpoint | None,
    target: tuple[int, bytes],
    fetch: FetchRecords,
    *,
    written_after: tuple[int, bytes] | None = None,
    own_target: bool = False,
    execution_ended: bool = False,
    force: str | None = None,
) -> tuple[Checkpoint | None, tuple[int, bytes] | None]:
    """Under the writers' lock: the checkpoint due at ``target`` (position, ledger hash), if any,
    and how far the ledger is now known sound (for ``Verified.raise_to`` once committed).

    A checkpoint is never signed over an event this process has not verified. Events it appends
    in this very transaction (those after ``written_after``, the head it chained them to) are its
    own; everything else between the newest checkpoint (or what it verified already) and the
    target is read and checked: positions without gaps, the ledger chain, and each event's MAC.
    ``own_target`` says the target is this process's own head (the hash it computed): once what
    it verified reaches that far, nothing needs reading.
    Events without a MAC are accepted only between a checkpoint of the encoding from before MACs
    (v1) and the first event that has one: what an earlier version wrote and no checkpoint
    sealed; the v2 checkpoint made then says from where MACs begin (``macs_from``). When an
    event fails, the checkpoint signs only what precedes it (if anything past the newest), the
    problem goes to ``sealer.refused``, and no later seal of this process passes it."""
    reason = sealer.reason_to_seal(last, target[0], execution_ended=execution_ended, force=force)
    if reason is None:
        return None, None
    key = sealer.event_mac()
    if key is None:  # a sealer that keeps no MACs signs the head as it is (the encoding before MACs)
        return sealer.make_checkpoint(last, target[0], target[1], reason, macs_from=None), None
    if _blocked(sealer, verified, last):
        return None, None
    before_macs = last is not None and not last.declares_macs
    base = (last.position, last.ledger_hash) if last is not None else (0, GENESIS)
    up_to = written_after[0] if written_after is not None else target[0]
    anchor = base
    known = verified.get()
    if own_target and not before_macs and known[0] >= target[0] > base[0]:
        # Its own head, inside what it verified (its writer threads went on meanwhile).
        return sealer.make_checkpoint(last, target[0], target[1], reason, macs_from=last.macs_from if last else 1), None
    # What this process checked already, unless the ledger was sealed before MACs (then it is read
    # from that checkpoint, once, to learn where MACs begin) or a seal of its own earlier head.
    if not before_macs and known[0] > anchor[0] and (written_after is not None or known[0] <= up_to):
        anchor = known
    good, first_mac, problem = _check_unsealed(key, anchor, up_to, fetch, pre_macs_allowed=before_macs)
    if problem is None and written_after is not None and written_after != good:
        problem = Problem(
            ProblemKind.HASH_MISMATCH,
            f"ledger hash mismatch: position {good[0]} changed under the writer (it holds {written_after[1].hex()[:16]}…, "
            f"verified {good[1].hex()[:16]}…)",
            good[0],
        )
    if problem is None and written_after is None and good != target:
        problem = Problem(
            ProblemKind.HASH_MISMATCH,
            f"ledger hash mismatch: position {target[0]} no longer holds the ledger hash this process wrote there",
            target[0],
        )
        good = anchor if anchor[0] < target[0] else base
    if before_macs:
        own_first = written_after[0] + 1 if written_after is not None else None
        macs_from = first_mac or (own_first if problem is None and own_first is not None else None)
    else:
        macs_from = last.macs_from if last is not None else 1
    if problem is None:
        return sealer.make_checkpoint(last, target[0], target[1], reason, macs_from=macs_from or target[0] + 1), target
    verified.blocked = problem
    sealer.refused(problem)
    if good[0] <= base[0]:
        return None, None
    cut = f"{reason} (only up to position {good[0]}: position {problem.position} does not verify)"
    return sealer.make_checkpoint(last, good[0], good[1], cut, macs_from=macs_from or good[0] + 1), good


def _blocked(sealer: Sealer, verified: Verified, last: Checkpoint | None) -> bool:
    """Whether nothing may be sealed: an event failed before (``verified.blocked``), or the newest
    checkpoint does not carry the service's signature; the sealer is told why."""
    if verified.blocked is None and last is not None and not sealer.trusts(last):
        verified.blocked = Problem(
            ProblemKind.BAD_SIGNATURE,
            f"bad signature: the newest checkpoint #{last.sequence} does not verify with the service's key: "
            "nothing is sealed after it",
            last.position,
            checkpoint=last.sequence,
        )
    if verified.blocked is None:
        return False
    sealer.refused(verified.blocked)
    return True


def _check_unsealed(
    key: EventMac, anchor: tuple[int, bytes], up_to: int, fetch: FetchRecords, *, pre_macs_allowed: bool
) -> tuple[tuple[int, bytes], int | None, Problem | None]:
    """Check the records after ``anchor`` up to ``up_to``: (how far they are sound, the first
    position that carries a MAC, the first problem)."""
    good, first_mac = anchor, None
    if up_to < anchor[0]:
        return good, None, Problem(
            ProblemKind.TAIL_TRUNCATED,
            f"tail truncated: the ledger ends at position {up_to}, before position {anchor[0]}, which was sealed or checked",
            up_to,
        )
    if up_to == anchor[0]:
        return good, None, None
    for record in fetch(anchor[0], up_to):
        expected = good[0] + 1
        if record.position != expected:
            return good, first_mac, Problem(
                ProblemKind.MISSING_POSITION, f"missing position: expected {expected}, found {record.position}", expected
            )
        if ledger_hash(good[1], record.position, record.event_hash) != record.ledger_hash:
            return good, first_mac, Problem.at(
                record, ProblemKind.HASH_MISMATCH, "ledger hash mismatch: the ledger chain is broken here"
            )
        if record.mac is None:
            if not pre_macs_allowed or first_mac is not None:
                return good, first_mac, Problem.at(
                    record,
                    ProblemKind.FORGED_EVENT,
                    "forged event: it carries no MAC: inserted by someone without the service's key; "
                    "no checkpoint is signed over it",
                )
        elif not key.valid(record):
            return good, first_mac, Problem.at(
                record,
                ProblemKind.FORGED_EVENT,
                "forged event: its MAC does not verify: written by someone without the service's key, or changed; "
                "no checkpoint is signed over it",
            )
        elif first_mac is None:
            first_mac = record.position
        good = (record.position, record.ledger_hash)
    if good[0] != up_to:
        return good, first_mac, Problem(
            ProblemKind.MISSING_POSITION, f"missing position: the ledger has no position {good[0] + 1}", good[0] + 1
        )
    return good, first_mac, None


def seal_own_head(
    sealer: Sealer,
    verified: Verified,
    last: Checkpoint | None,
    own: tuple[int, bytes],
    reason: str,
    through: int | None,
    fetch: FetchRecords,
) -> tuple[Checkpoint | None, tuple[int, bytes] | None]:
    """Under the writers' lock: the checkpoint of what this process wrote (``own``: the position
    and the ledger hash it computed), unless ``last`` already covers ``through`` or that head."""
    if covers(last.position if last else None, through):
        return None, None
    return guarded_seal(sealer, verified, last, own, fetch, own_target=True, force=reason)


def read_ahead(fetch_page: Callable[[int], list[ChainRecord]], after_position: int, page: int) -> Iterator[ChainRecord]:
    """The records after ``after_position``, page by page, with the next page read by a helper
    thread while the caller works through this one.

    Reading the ledger is bound by the database producing rows (waiting for it releases the GIL),
    verifying it by hashing them: overlapped, a walk costs about the slower of the two rather than
    their sum. ``fetch_page(after)`` returns up to ``page`` records after that position, in order.
    Errors in the helper are raised to the caller; a caller that stops early stops the helper.
    """
    pages: queue.Queue[list[ChainRecord] | BaseException] = queue.Queue(maxsize=2)
    stopped = threading.Event()

    def produce() -> None:
        after = after_position
        while not stopped.is_set():
            try:
                records: list[ChainRecord] | BaseException = fetch_page(after)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller, who raises it
                records = exc
            while not stopped.is_set():
                try:
                    pages.put(records, timeout=0.1)
                    break
                except queue.Full:
                    continue
            if isinstance(records, BaseException) or len(records) < page:
                return
            after = records[-1].position

    helper = threading.Thread(target=produce, name="mai-safety-ledger-read-ahead", daemon=True)
    helper.start()
    try:
        while True:
            item = pages.get()
            if isinstance(item, BaseException):
                raise item
            yield from item
            if len(item) < page:
                return
    finally:
        stopped.set()
        helper.join()
