"""How both chained recorders append: on eventsourcing's own write path, through its hooks.

The library's ``insert_events`` opens the connection and the transaction, retries, maps errors
and commits; it calls a per-transaction hook with the cursor inside that transaction (SQLite's
``_insert_events``, Postgres's ``_insert_stored_events``), as the library's own
``examples/searchabletimestamps`` does. Each recorder chains, inserts, keeps the index of open
executions and seals in that hook, and notes what it did in an ``Appended``: the note of the
append under way on this thread (the library's ``insert_events`` passes the hook nothing of ours
but keyword arguments, which are the caller's; so the note stays with the recorder, per thread).
Only once the library's transaction has committed does this process learn from it (the hashes it
wrote, its head, how far the ledger is verified, the newest checkpoint): a rolled-back append
teaches it nothing. Whether an append seals is the sealer's to say, from the events' topics: the
recorder is built with its sealer by the ledger's factory (factory.py), never handed one later.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from eventsourcing.persistence import StoredEvent

from mai_safety.ledger.application.ports import Sealer
from mai_safety.ledger.domain.chain import GENESIS
from mai_safety.ledger.domain.checkpoint import Checkpoint

from .chaining import ChainedRow, FetchRecords, NewestCheckpoint, OwnHead, Verified, WrittenHashes, guarded_seal

@dataclass
class Appended:
    """What one append transaction wrote, noted by the hook for after the commit. A retry of the
    library's transaction runs the hook again, which notes its own attempt over the failed one."""

    rows: Sequence[ChainedRow] = field(default_factory=list)
    head_before: tuple[int, bytes] | None = None
    checkpoint: Checkpoint | None = None
    through: tuple[int, bytes] | None = None
    #: What else the recorder keeps once the transaction has committed (never before).
    on_commit: list[Callable[[], None]] = field(default_factory=list)

    def note(
        self,
        rows: Sequence[ChainedRow],
        head_before: tuple[int, bytes] | None,
        checkpoint: Checkpoint | None,
        through: tuple[int, bytes] | None,
    ) -> None:
        """What this attempt wrote, in place of anything an attempt before it noted."""
        self.rows, self.head_before, self.checkpoint, self.through = rows, head_before, checkpoint, through
        self.on_commit = []


class ChainedAppends:
    """Mixed in before the library's application recorder: its ``insert_events``, then what the
    committed append teaches this process."""

    def __init__(self, *args: Any, sealer: Sealer | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sealer = sealer
        self._written = WrittenHashes()
        self._newest = NewestCheckpoint()
        self._own = OwnHead()
        self._verified = Verified()
        self._appending = threading.local()

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if not stored_events:
            return []
        appended = self._appending.note = Appended()
        try:
            notification_ids: Sequence[int] | None = super().insert_events(stored_events, **kwargs)  # type: ignore[misc]
        finally:
            self._appending.note = None
        self._learn(appended)
        return notification_ids

    def appended(self) -> Appended:
        """The hook's note for after the commit: the append under way on this thread (a fresh one
        where the library's hook runs outside ``insert_events``)."""
        found = getattr(self._appending, "note", None)
        return found if isinstance(found, Appended) else Appended()

    def _ends_execution(self, stored_events: Sequence[StoredEvent]) -> bool:
        """In the hook: whether these events must be sealed in their own transaction."""
        return self._sealer is not None and self._sealer.ends_execution(stored.topic for stored in stored_events)

    def _seal_due(
        self,
        last_checkpoint: Checkpoint | None,
        head_before: tuple[int, bytes] | None,
        rows: Sequence[ChainedRow],
        fetch: FetchRecords,
        *,
        execution_ended: bool,
    ) -> tuple[Checkpoint | None, tuple[int, bytes] | None]:
        """In the hook, under the writers' lock: the checkpoint these rows make due, if any, and how
        far the ledger is then known sound (``guarded_seal``)."""
        if not rows or self._sealer is None:
            return None, None
        return guarded_seal(
            self._sealer,
            self._verified,
            last_checkpoint,
            (rows[-1].position, rows[-1].ledger_hash),
            fetch,
            written_after=head_before or (0, GENESIS),
            execution_ended=execution_ended,
        )

    def _learn(self, appended: Appended) -> None:
        # Committed: the next event of these executions, and the next seal, need no lookup.
        self._written.remember(appended.rows)
        self._own.remember(appended.rows)
        self._verified.advance(appended.head_before, appended.rows)
        self._verified.raise_to(appended.through)
        self._committed(appended.checkpoint)
        for keep in appended.on_commit:
            keep()
        if self._sealer is not None and appended.rows:
            self._sealer.appended(appended.rows[-1].position, [row.stored.topic for row in appended.rows])

    def _committed(self, checkpoint: Checkpoint | None) -> None:
        self._newest.remember(checkpoint)
        if checkpoint is not None and self._sealer is not None:
            self._sealer.committed(checkpoint)
