"""The embedded ledger: eventsourcing's SQLite recorder with both chain hashes on every row.

Selected by ``PERSISTENCE_MODULE=mai_safety.infrastructure.ledger.sqlite``. Writers take SQLite's
write lock first (``BEGIN IMMEDIATE``), so reading the ledger head and appending after it happen
under one lock, across threads and processes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing import sqlite as es_sqlite
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor, SQLiteTransaction

from mai_safety.application.ports import ChainSource
from mai_safety.domain.chain import ChainRecord

from .chaining import canonical_id, chain_batch


class _ImmediateTransaction(SQLiteTransaction):
    """eventsourcing's transaction (and its error mapping), but taking the write lock at BEGIN."""

    def __enter__(self) -> SQLiteCursor:
        cursor = self.connection.cursor()
        cursor.execute("BEGIN IMMEDIATE")
        return cursor


class ChainedSQLiteApplicationRecorder(SQLiteApplicationRecorder, ChainSource):
    def construct_create_table_statements(self) -> list[str]:
        table = self.events_table_name
        return [
            f"CREATE TABLE IF NOT EXISTS {table} ("
            "originator_id TEXT, "
            "originator_version INTEGER, "
            "topic TEXT, "
            "state BLOB, "
            "ledger_position INTEGER NOT NULL UNIQUE, "
            "event_hash BLOB NOT NULL, "
            "ledger_hash BLOB NOT NULL, "
            "PRIMARY KEY (originator_id, originator_version))",
        ]

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        with self.datastore.get_connection(commit=True) as connection:
            with _ImmediateTransaction(connection, commit=True) as cursor, cursor:
                return self._insert_chained(cursor, stored_events)

    def _insert_chained(self, cursor: SQLiteCursor, stored_events: Sequence[StoredEvent]) -> list[int]:
        table = self.events_table_name
        cursor.execute(f"SELECT ledger_position, ledger_hash FROM {table} ORDER BY ledger_position DESC LIMIT 1")
        row = cursor.fetchone()
        head = (row[0], bytes(row[1])) if row else None

        def previous(originator_id: UUID | str, version: int) -> bytes | None:
            cursor.execute(
                f"SELECT event_hash FROM {table} WHERE originator_id=? AND originator_version=?",
                (self._column_id(originator_id), version),
            )
            found = cursor.fetchone()
            return bytes(found[0]) if found else None

        notification_ids = []
        for chained in chain_batch(stored_events, head, previous):
            stored = chained.stored
            cursor.execute(
                f"INSERT INTO {table} (originator_id, originator_version, topic, state, "
                "ledger_position, event_hash, ledger_hash) VALUES (?,?,?,?,?,?,?)",
                (
                    self._column_id(stored.originator_id),
                    stored.originator_version,
                    stored.topic,
                    stored.state,
                    chained.position,
                    chained.event_hash,
                    chained.ledger_hash,
                ),
            )
            notification_ids.append(cursor.lastrowid)
        return notification_ids

    @staticmethod
    def _column_id(originator_id: UUID | str) -> str:
        return originator_id.hex if isinstance(originator_id, UUID) else originator_id

    def select_chain(self, after_position: int, limit: int) -> list[ChainRecord]:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(
                f"SELECT ledger_position, originator_id, originator_version, topic, state, event_hash, ledger_hash "
                f"FROM {self.events_table_name} WHERE ledger_position > ? ORDER BY ledger_position LIMIT ?",
                (after_position, limit),
            )
            return [_record(row) for row in cursor.fetchall()]


def _record(row: sqlite3.Row | Any) -> ChainRecord:
    return ChainRecord(
        position=row[0],
        originator_id=canonical_id(row[1]),
        version=row[2],
        topic=row[3],
        state=bytes(row[4]),
        event_hash=bytes(row[5]),
        ledger_hash=bytes(row[6]),
    )


class Factory(es_sqlite.SQLiteFactory):  # the module must hold exactly one factory class
    application_recorder_class = ChainedSQLiteApplicationRecorder


__all__ = ["ChainedSQLiteApplicationRecorder", "Factory"]
