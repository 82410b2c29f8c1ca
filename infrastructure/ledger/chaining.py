"""What both chained recorders share: computing the hashes of a batch of events being inserted."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from uuid import UUID

from eventsourcing.persistence import IntegrityError, StoredEvent

from mai_safety.domain.chain import GENESIS, event_hash, ledger_hash


def canonical_id(originator_id: UUID | str) -> str:
    """The execution id as hashed: the hyphenated UUID text, whatever the column type."""
    return str(originator_id if isinstance(originator_id, UUID) else UUID(str(originator_id)))


@dataclass(frozen=True)
class ChainedRow:
    stored: StoredEvent
    position: int
    event_hash: bytes
    ledger_hash: bytes


def chain_batch(
    stored_events: Sequence[StoredEvent],
    head: tuple[int, bytes] | None,
    previous_event_hash: Callable[[UUID | str, int], bytes | None],
) -> list[ChainedRow]:
    """Hash a batch in order, continuing the ledger from ``head`` and each execution from its last event.

    ``previous_event_hash(originator_id, version)`` returns the stored hash of that version or None.
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
            found = previous_event_hash(stored.originator_id, version - 1)
            if found is None:
                raise IntegrityError(f"event {version} of {originator} has no stored predecessor to chain to")
            previous = found
        digest = event_hash(previous, stored.topic, originator, version, stored.state)
        position += 1
        ledger_head = ledger_hash(ledger_head, position, digest)
        in_batch[originator] = (version, digest)
        rows.append(ChainedRow(stored, position, digest, ledger_head))
    return rows

