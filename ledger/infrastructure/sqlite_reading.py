"""What the SQLite ledger answers to readers (verification, replay, reports): its head, its rows
with both chain hashes and MACs, and its checkpoints. A part the recorder in sqlite.py holds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.sqlite import SQLiteCursor, SQLiteDatastore

from mai_safety.ledger.application.ports import LedgerHead
from mai_safety.ledger.domain.chain import ChainRecord
from mai_safety.ledger.domain.checkpoint import Checkpoint

from .chaining import CHECKPOINT_COLUMNS, checkpoint_from_row

NO_LIMIT = 1 << 62
# Ids are stored as 32 hex digits; they are hashed in their hyphenated form, which SQLite formats
# here more cheaply than Python would per row (and a garbled id simply fails its hash).
HASHED_ID = (
    "CASE WHEN length(originator_id) = 32 THEN substr(originator_id, 1, 8) || '-' || substr(originator_id, 9, 4) "
    "|| '-' || substr(originator_id, 13, 4) || '-' || substr(originator_id, 17, 4) || '-' || substr(originator_id, 21) "
    "ELSE originator_id END"
)
RECORD_COLUMNS = f"ledger_position, {HASHED_ID}, originator_version, topic, state, event_hash, ledger_hash, event_mac"


class SQLiteLedgerReads:
    """The recorder's read side, over its datastore and tables."""

    def __init__(self, datastore: SQLiteDatastore, events_table_name: str) -> None:
        self.datastore = datastore
        self.events_table_name = events_table_name
        self.checkpoints_table_name = f"{events_table_name}_checkpoints"

    def _read_head(self, cursor: SQLiteCursor) -> tuple[tuple[int, bytes] | None, Checkpoint | None]:
        """The head and the newest checkpoint as the database holds them, in one statement."""
        cursor.execute(
            f"SELECT * FROM (SELECT 0, ledger_position, ledger_hash, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL "
            f"FROM {self.events_table_name} ORDER BY ledger_position DESC LIMIT 1) "
            f"UNION ALL SELECT * FROM (SELECT 1, {CHECKPOINT_COLUMNS} FROM {self.checkpoints_table_name} "
            "ORDER BY sequence DESC LIMIT 1)"
        )
        head, checkpoint = None, None
        for row in cursor.fetchall():
            if row[0] == 0:
                head = (int(row[1]), bytes(row[2]))
            else:
                checkpoint = checkpoint_from_row(tuple(row)[1:])
        return head, checkpoint

    @staticmethod
    def column_id(originator_id: UUID | str) -> str:
        if isinstance(originator_id, UUID):
            return originator_id.hex
        return UUID(originator_id).hex if "-" in originator_id else originator_id

    def fetch(self, statement: str, params: Sequence[Any]) -> list[Any]:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(statement, params)
            return list(cursor.fetchall())

    def head(self) -> LedgerHead:
        with self.datastore.transaction(commit=False) as cursor:
            head, checkpoint = self._read_head(cursor)
        position, digest = head if head is not None else (0, bytes(32))
        return LedgerHead(position, digest, checkpoint)

    def select_chain(self, after_position: int, limit: int, up_to: int | None = None) -> list[ChainRecord]:
        rows = self.fetch(
            f"SELECT {RECORD_COLUMNS} FROM {self.events_table_name} WHERE ledger_position > ? "
            "AND ledger_position <= ? ORDER BY ledger_position LIMIT ?",
            (after_position, NO_LIMIT if up_to is None else up_to, limit),
        )
        return [ChainRecord._make(row) for row in rows]

    def select_execution(self, originator_id: str) -> list[ChainRecord]:
        rows = self.fetch(
            f"SELECT {RECORD_COLUMNS} FROM {self.events_table_name} WHERE originator_id = ? ORDER BY originator_version",
            (self.column_id(originator_id),),
        )
        return [ChainRecord._make(row) for row in rows]

    def event_hash_of(self, originator_id: str, version: int) -> bytes | None:
        rows = self.fetch(
            f"SELECT event_hash FROM {self.events_table_name} WHERE originator_id = ? AND originator_version = ?",
            (self.column_id(originator_id), version),
        )
        return bytes(rows[0][0]) if rows else None

    def ledger_hash_at(self, position: int) -> bytes | None:
        rows = self.fetch(f"SELECT ledger_hash FROM {self.events_table_name} WHERE ledger_position = ?", (position,))
        return bytes(rows[0][0]) if rows else None

    def select_checkpoints(
        self, after_sequence: int, limit: int, *, from_position: int = 0, up_to_sequence: int | None = None
    ) -> list[Checkpoint]:
        rows = self.fetch(
            f"SELECT {CHECKPOINT_COLUMNS} FROM {self.checkpoints_table_name} WHERE sequence > ? AND sequence <= ? "
            "AND ledger_position >= ? ORDER BY sequence LIMIT ?",
            (after_sequence, NO_LIMIT if up_to_sequence is None else up_to_sequence, from_position, limit),
        )
        return [checkpoint_from_row(row) for row in rows]

    def checkpoint_before(self, position: int) -> Checkpoint | None:
        rows = self.fetch(
            f"SELECT {CHECKPOINT_COLUMNS} FROM {self.checkpoints_table_name} WHERE ledger_position < ? "
            "ORDER BY sequence DESC LIMIT 1",
            (position,),
        )
        return checkpoint_from_row(rows[0]) if rows else None

    def checkpoint_covering(self, position: int) -> Checkpoint | None:
        rows = self.fetch(
            f"SELECT {CHECKPOINT_COLUMNS} FROM {self.checkpoints_table_name} WHERE ledger_position >= ? "
            "ORDER BY sequence LIMIT 1",
            (position,),
        )
        return checkpoint_from_row(rows[0]) if rows else None

    def checkpoint_with_signature(self, signature: bytes, other_than: int) -> int | None:
        rows = self.fetch(
            f"SELECT sequence FROM {self.checkpoints_table_name} WHERE signature = ? AND sequence <> ? "
            "ORDER BY sequence LIMIT 1",
            (signature, other_than),
        )
        return int(rows[0][0]) if rows else None
