"""What both chained recorders share: hashing a batch of events being inserted, and reading rows."""

from __future__ import annotations

import hashlib
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple
from uuid import UUID

from eventsourcing.persistence import IntegrityError, StoredEvent
from mai_safety.application.ports import Sealer
from mai_safety.domain.chain import GENESIS, ChainRecord, event_hash, ledger_hash
from mai_safety.domain.checkpoint import Checkpoint


def canonical_id(originator_id: UUID | str) -> str:
    """The execution id as hashed: the hyphenated UUID text, whatever the column type."""
    return str(originator_id if isinstance(originator_id, UUID) else UUID(str(originator_id)))


class ChainedRow(NamedTuple):
    stored: StoredEvent
    originator: str  # the execution id as hashed (canonical_id)
    position: int
    event_hash: bytes
    ledger_hash: bytes


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



#: The checkpoint table's columns, in the order ``checkpoint_from_row`` reads them.
CHECKPOINT_COLUMNS = "sequence, ledger_position, ledger_hash, signed_at, reason, key_id, previous, signature"


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


def seal_own_head(
    sealer: Sealer, last: Checkpoint | None, own: tuple[int, bytes], reason: str, through: int | None
) -> Checkpoint | None:
    """Under the writers' lock: the checkpoint of what this process wrote (``own``: the position
    and the ledger hash it computed), unless ``last`` already covers ``through`` or that head."""
    if covers(last.position if last else None, through):
        return None
    return sealer.seal_if_due(last, own[0], own[1], force=reason)


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
