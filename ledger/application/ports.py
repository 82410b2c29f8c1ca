"""The ledger's ports: what the wing's application code depends on and its infrastructure provides
(the recorders, the blob store, the work locks, the signing keys, the witnesses). Each states its
contract; the adapters live in ledger/infrastructure/, fakes beside the unit tests.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any

from mai_safety.ledger.domain.chain import ChainRecord, EventMac, Problem
from mai_safety.ledger.domain.checkpoint import Checkpoint


class WorkLock(ABC):
    """Work that one process at a time does for the whole ledger (recovery, the sweep of
    unanswered waits), however many processes write it."""

    @abstractmethod
    def hold(self, name: str, wait_s: float = 0.0) -> AbstractContextManager[bool]:
        """Take the lock named ``name`` for the block, waiting up to ``wait_s``; the block is
        given True when it holds it, False when another process does (do not do the work)."""


class ProcessWorkLock(WorkLock):
    """The default where the ledger offers no lock of its own: one process, a lock per work."""

    def __init__(self) -> None:
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    @contextmanager
    def hold(self, name: str, wait_s: float = 0.0) -> Iterator[bool]:
        with self._guard:
            lock = self._locks.setdefault(name, threading.Lock())
        got = lock.acquire(timeout=wait_s) if wait_s > 0 else lock.acquire(blocking=False)
        try:
            yield got
        finally:
            if got:
                lock.release()


class BlobTooLarge(Exception):
    """The blob store holds more bytes under a SHA-256 than the reader allowed: none were read."""

    def __init__(self, sha256: str, size: int, max_bytes: int) -> None:
        super().__init__(f"blob {sha256} holds {size} bytes, more than the {max_bytes} expected")
        self.sha256 = sha256
        self.size = size
        self.max_bytes = max_bytes


class BlobStore(ABC):
    """Content-addressed bytes kept beside the ledger, in the same database (docs/decisions/0014).

    ``put`` stores bytes under their SHA-256 (lowercase hex, which it returns) and has committed
    them when it returns, so that an event naming the blob can be written after it and never
    before. It is idempotent: bytes already stored under that SHA-256 are left as they are
    (insert if absent; nothing is ever changed or removed, and on Postgres the database refuses
    to). ``get`` returns the bytes stored under a SHA-256, or None when there are none; it reads
    at most ``max_bytes`` and raises BlobTooLarge, reading nothing, when more are stored. It does
    not check them against their name: whoever relies on the bytes hashes them
    (``domain.output.blob_sha256``), so that an altered blob is reported rather than served."""

    @abstractmethod
    def put(self, data: bytes) -> str: ...

    @abstractmethod
    def get(self, sha256: str, max_bytes: int) -> bytes | None: ...


class ChainSource(ABC):
    """Reads the ledger with both hashes of every event, in ledger order."""

    @abstractmethod
    def select_chain(self, after_position: int, limit: int, up_to: int | None = None) -> list[ChainRecord]:
        """Records with ``after_position < position <= up_to`` (no upper bound if None), by position."""

    def iter_chain(self, after_position: int = 0, up_to: int | None = None, page: int = 5000) -> Iterator[ChainRecord]:
        while True:
            records = self.select_chain(after_position, page, up_to)
            yield from records
            if len(records) < page:
                return
            after_position = records[-1].position


# --- the tamper-evident ledger (docs/decisions/0007) -------------------------------------------


class PublicKey(ABC):
    """A public key that checks checkpoint signatures."""

    key_id: str  # "sha256:" and the hex SHA-256 of the raw public key

    @abstractmethod
    def verify(self, message: bytes, signature: bytes) -> bool: ...

    @abstractmethod
    def to_pem(self) -> str: ...


class Signer(ABC):
    """Signs checkpoints with the service's private key, and gives the key that MACs each event
    (derived from the private key: only its holder can make or check an event MAC)."""

    public_key: PublicKey

    @abstractmethod
    def sign(self, message: bytes) -> bytes: ...

    @abstractmethod
    def mac_key(self) -> bytes:
        """32 bytes or more for event MACs (docs/decisions/0011)."""


class KeyStore(ABC):
    """Where the service's signing key lives.

    ``signer`` loads the key pair, creating it on first use; ``public_key`` never creates anything
    and returns None when there is no key yet; ``public_key_from_pem`` reads one given from outside
    (an export bundle, ``--public-key``). Unreadable or unsafe keys raise ConfigurationError."""

    @abstractmethod
    def signer(self) -> Signer: ...

    @abstractmethod
    def public_key(self) -> PublicKey | None: ...

    @abstractmethod
    def public_key_from_pem(self, pem: str, source: str) -> PublicKey: ...

    def signer_if_present(self) -> Signer | None:
        """The signer if the key exists (never creating it): what checks event MACs."""
        return self.signer() if self.public_key() is not None else None


class Sealer(ABC):
    """Decides, inside the writer's transaction and under its lock, whether the new head needs a
    signed checkpoint (``reason_to_seal``), and makes it (``make_checkpoint``). ``force`` seals
    whenever the head is not yet covered.

    Before it asks for a checkpoint, the ledger checks what it did not write itself since the
    newest checkpoint (event MACs under ``event_mac``, the chain, and the newest checkpoint's own
    signature with ``trusts``), and never seals past an event that fails: it tells ``refused``
    instead (docs/decisions/0011). ``committed`` hears of every checkpoint once it is committed."""

    @abstractmethod
    def reason_to_seal(
        self, last: Checkpoint | None, head_position: int, *, execution_ended: bool = False, force: str | None = None
    ) -> str | None: ...

    @abstractmethod
    def make_checkpoint(
        self, last: Checkpoint | None, position: int, ledger_hash: bytes, reason: str, *, macs_from: int | None
    ) -> Checkpoint: ...

    def event_mac(self) -> EventMac | None:
        """The MAC every appended event carries; None: events are written without one."""
        return None

    def trusts(self, checkpoint: Checkpoint) -> bool:
        """Whether a checkpoint read from the ledger carries a valid signature of ours."""
        return True

    def committed(self, checkpoint: Checkpoint) -> None:  # noqa: B027 - optional: nothing by default
        """A checkpoint was committed (it goes to the witnesses)."""

    def refused(self, problem: Problem) -> None:  # noqa: B027 - optional: nothing by default
        """A seal was refused, or cut short, because of this problem."""

    def ends_execution(self, topics: Iterable[str]) -> bool:
        """Whether an append of events with these topics must seal in its own transaction (an
        execution's ending, where the policy seals endings at once)."""
        return False

    def appended(self, position: int, topics: Sequence[str]) -> None:  # noqa: B027 - optional: nothing by default
        """An append through ``position``, of events with these topics, committed."""


@dataclass(frozen=True)
class LedgerHead:
    """The newest event and the newest checkpoint, read in one snapshot."""

    position: int
    ledger_hash: bytes
    checkpoint: Checkpoint | None


class Ledger(ChainSource):
    """The chained event store as the audit sees it: lookups, checkpoints and sealing.

    Checkpoints are written only under the writers' lock, either by ``insert_events`` (when the
    sealer the recorder was built with says one is due, an execution's ending among the events
    included), by ``seal`` or by ``seal_written``; so checkpoint sequence and ledger chain never
    interleave."""

    @abstractmethod
    def head(self) -> LedgerHead: ...

    @abstractmethod
    def select_execution(self, originator_id: str) -> list[ChainRecord]:
        """That execution's events with their positions and hashes, by version."""

    @abstractmethod
    def event_hash_of(self, originator_id: str, version: int) -> bytes | None: ...

    @abstractmethod
    def ledger_hash_at(self, position: int) -> bytes | None: ...

    @abstractmethod
    def select_checkpoints(
        self, after_sequence: int, limit: int, *, from_position: int = 0, up_to_sequence: int | None = None
    ) -> list[Checkpoint]:
        """Checkpoints by sequence, those signing a position at or after ``from_position``."""

    def iter_checkpoints(
        self, *, from_position: int = 0, up_to_sequence: int | None = None, page: int = 5000
    ) -> Iterator[Checkpoint]:
        after = 0
        while True:
            found = self.select_checkpoints(after, page, from_position=from_position, up_to_sequence=up_to_sequence)
            yield from found
            if len(found) < page:
                return
            after = found[-1].sequence

    @abstractmethod
    def checkpoint_before(self, position: int) -> Checkpoint | None:
        """The newest checkpoint signing a position before ``position``."""

    @abstractmethod
    def checkpoint_covering(self, position: int) -> Checkpoint | None:
        """The first checkpoint signing ``position`` or a later one."""

    @abstractmethod
    def checkpoint_with_signature(self, signature: bytes, other_than: int) -> int | None:
        """The sequence of another checkpoint carrying this signature (a replayed one), if any."""

    @abstractmethod
    def seal(self, reason: str) -> Checkpoint | None:
        """Seal the head now unless a checkpoint covers it already; return the newest checkpoint."""

    @abstractmethod
    def seal_written(self, reason: str, *, through: int | None = None) -> Checkpoint | None:
        """Seal the furthest position this process has committed, with the ledger hash it computed
        itself (not one read back), unless a checkpoint covers it already, or covers ``through``;
        return the checkpoint made, or None."""

    def protection(self) -> dict[str, Any] | None:
        """Whether the database itself refuses changes to the ledger; None where it cannot."""
        return None

    def location(self) -> str:
        """Where the ledger lives, as a person reads it (no password): names it to witnesses."""
        return "ledger"

    def file_path(self) -> Any:
        """The ledger's file (a ``pathlib.Path``) where it is one, else None."""
        return None


@dataclass(frozen=True)
class WitnessedCheckpoint:
    """A checkpoint as one witness recorded it."""

    witness: str
    checkpoint: Checkpoint


class Witnesses(ABC):
    """Places outside the ledger's storage that keep a copy of every signed checkpoint, so that a
    ledger cut short with its checkpoints, or put back from an older copy, is caught
    (docs/decisions/0011). ``attach`` names the ledger (its id: the ledger hash at position 1,
    read when first needed; and where it lives). ``publish`` never blocks and never raises: a
    witness that cannot be written is tried again with the next checkpoint, and its failure is
    kept for ``failures`` to report. ``recorded`` gives what the readable witnesses hold for a
    ledger (entries that cannot be read are ``failures``)."""

    names: tuple[str, ...] = ()

    @abstractmethod
    def attach(self, ledger_id: Callable[[], "str | None"], location: str) -> None: ...

    @abstractmethod
    def publish(self, checkpoint: Checkpoint) -> None: ...

    @abstractmethod
    def flush(self, timeout: float | None = None) -> None: ...

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def recorded(self, ledger_id: str) -> list[WitnessedCheckpoint]: ...

    @abstractmethod
    def failures(self, ledger_id: str) -> list[str]: ...

    def readable(self) -> bool:
        """Whether any witness can be read back (so that verify can check the ledger against it)."""
        return False

    def other_ledgers_at(self, location: str, ledger_id: str) -> list[str]:
        """Ids of other ledgers a readable witness recorded at this same location (replaced?)."""
        return []
