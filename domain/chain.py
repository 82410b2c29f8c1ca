"""The chain-hash rule: how each stored event is bound to the one before it.

Two chains run through the ledger:

* the **execution chain** links the events of one execution by version:
  ``event_hash = H("mai-safety/event/v1", previous event_hash, topic, execution id, version, state)``
* the **ledger chain** links every event in commit order by a gap-free position:
  ``ledger_hash = H("mai-safety/ledger/v1", previous ledger_hash, position, event_hash)``

``H`` is SHA-256 over a canonical encoding: the domain tag, then each field as an 8-byte big-endian
length followed by its bytes (text as UTF-8, integers as 8-byte big-endian). The state is hashed
exactly as stored, so verification never depends on re-serialising anything. See
docs/decisions/0002-chain-hash-encoding.md.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

GENESIS = bytes(32)
_EVENT_TAG = b"mai-safety/event/v1"
_LEDGER_TAG = b"mai-safety/ledger/v1"


def _field(data: bytes) -> bytes:
    return len(data).to_bytes(8, "big") + data


def event_hash(previous: bytes, topic: str, originator_id: str, version: int, state: bytes) -> bytes:
    digest = hashlib.sha256(_field(_EVENT_TAG))
    digest.update(_field(previous))
    digest.update(_field(topic.encode("utf-8")))
    digest.update(_field(originator_id.encode("utf-8")))
    digest.update(_field(version.to_bytes(8, "big", signed=True)))
    digest.update(_field(state))
    return digest.digest()


def ledger_hash(previous: bytes, position: int, event_digest: bytes) -> bytes:
    digest = hashlib.sha256(_field(_LEDGER_TAG))
    digest.update(_field(previous))
    digest.update(_field(position.to_bytes(8, "big", signed=True)))
    digest.update(_field(event_digest))
    return digest.digest()


@dataclass(frozen=True)
class ChainRecord:
    """One stored event as the ledger holds it, with both of its hashes."""

    position: int
    originator_id: str
    version: int
    topic: str
    state: bytes
    event_hash: bytes
    ledger_hash: bytes


@dataclass(frozen=True)
class ChainProblem:
    position: int
    originator_id: str
    version: int
    topic: str
    problem: str

    def describe(self) -> str:
        return (
            f"position {self.position}: execution {self.originator_id} event {self.version} "
            f"({self.topic.rsplit('.', 1)[-1]}): {self.problem}"
        )


class ChainVerifier:
    """Recomputes both chains over records given in ledger order; collects every problem it sees.

    Feed it all records from position 1 (or from a trusted head: ``start_after``) with ``check``;
    ``problems`` then lists each break. It holds one hash per execution, nothing else.
    """

    def __init__(self, start_after: int = 0, head: bytes = GENESIS) -> None:
        self._position = start_after
        self._ledger_head = head
        self._executions: dict[str, tuple[int, bytes]] = {}
        self.problems: list[ChainProblem] = []
        self.checked = 0

    def _report(self, record: ChainRecord, problem: str) -> None:
        self.problems.append(
            ChainProblem(record.position, record.originator_id, record.version, record.topic, problem)
        )

    def check(self, record: ChainRecord) -> None:
        self.checked += 1
        if record.position != self._position + 1:
            self._report(
                record,
                f"missing position: expected {self._position + 1}, found {record.position}",
            )
        last_version, previous = self._executions.get(record.originator_id, (0, GENESIS))
        if record.version != last_version + 1:
            self._report(
                record, f"unexpected event: expected version {last_version + 1} of this execution, found {record.version}"
            )
        recomputed = event_hash(previous, record.topic, record.originator_id, record.version, record.state)
        if recomputed != record.event_hash:
            self._report(record, "event hash mismatch: the event's content or its predecessor was changed")
        expected_ledger = ledger_hash(self._ledger_head, record.position, record.event_hash)
        if expected_ledger != record.ledger_hash:
            self._report(record, "ledger hash mismatch: the ledger chain is broken here")
        self._position = record.position
        self._ledger_head = record.ledger_hash
        self._executions[record.originator_id] = (record.version, record.event_hash)

    def check_all(self, records: Iterable[ChainRecord]) -> "ChainVerifier":
        for record in records:
            self.check(record)
        return self

    @property
    def intact(self) -> bool:
        return not self.problems

    @property
    def head(self) -> tuple[int, bytes]:
        return self._position, self._ledger_head
