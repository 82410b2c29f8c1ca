"""The SQLite recorder's tables, and its parts beside the record (open_index.py): the index of open
executions, kept by each append in its transaction, and the servers' leases. Used by sqlite.py."""

from __future__ import annotations

import time
from collections.abc import Sequence

from eventsourcing.sqlite import SQLiteCursor, SQLiteDatastore

from mai_safety.application.open_sets import OpenSet, replay

from .blobs import blobs_table
from .chaining import ADDED_COLUMNS, ChainedRow
from .open_index import INDEX_COLUMNS, changes_of, kinds_table, leases_table, open_table
from .sqlite_reading import HASHED_ID


def create_statements(table: str) -> list[str]:
    """The ledger's tables beside an events table named ``table``.

    The events table is stored in ledger order (the position is its row id), so it needs no index
    of its own on positions: an append writes the pages plain eventsourcing writes, and no more.
    Positions are gap-free and follow commit order, so they serve as notification ids too.
    (Ledgers made before keep their layout, a separate unique index on the position; every
    statement here reads both.)"""
    checkpoints = f"{table}_checkpoints"
    return [
        f"CREATE TABLE IF NOT EXISTS {table} ("
        "ledger_position INTEGER PRIMARY KEY, originator_id TEXT, originator_version INTEGER, topic TEXT, state BLOB, "
        "event_hash BLOB NOT NULL, ledger_hash BLOB NOT NULL, event_mac BLOB, UNIQUE (originator_id, originator_version))",
        f"CREATE TABLE IF NOT EXISTS {checkpoints} ("
        "sequence INTEGER PRIMARY KEY, ledger_position INTEGER NOT NULL, ledger_hash BLOB NOT NULL, "
        "signed_at TEXT NOT NULL, reason TEXT NOT NULL, key_id TEXT NOT NULL, previous BLOB NOT NULL, "
        "signature BLOB NOT NULL, format_version INTEGER NOT NULL DEFAULT 1, macs_from INTEGER)",
        f"CREATE INDEX IF NOT EXISTS {checkpoints}_position_idx ON {checkpoints} (ledger_position)",
        # Made here too where a ledger from before blobs is opened: IF NOT EXISTS.
        f"CREATE TABLE IF NOT EXISTS {blobs_table(table)} (sha256 TEXT PRIMARY KEY, size INTEGER NOT NULL, data BLOB NOT NULL)",
        # The index of open executions (docs/decisions/0019): not part of the record.
        f"CREATE TABLE IF NOT EXISTS {open_table(table)} ("
        "originator_id TEXT NOT NULL, kind TEXT NOT NULL, holder TEXT, PRIMARY KEY (originator_id, kind)) WITHOUT ROWID",
        f"CREATE TABLE IF NOT EXISTS {kinds_table(table)} (kind TEXT PRIMARY KEY, read_through INTEGER NOT NULL)",
        # The servers' leases (application/abandoned.py): not part of the record either.
        f"CREATE TABLE IF NOT EXISTS {leases_table(table)} (holder TEXT PRIMARY KEY, renewed_at REAL NOT NULL)",
    ]


def add_missing_columns(cursor: SQLiteCursor, table: str) -> None:
    """A ledger made before event MACs (or before the index's holders) gains their columns
    (nullable: its rows keep what they had, and its checkpoints read as the encoding they were)."""
    for suffix, column, sqlite_type, _ in (*ADDED_COLUMNS, *INDEX_COLUMNS):
        cursor.execute(f"PRAGMA table_info({table}{suffix})")
        if column not in {row[1] for row in cursor.fetchall()}:
            cursor.execute(f"ALTER TABLE {table}{suffix} ADD COLUMN {column} {sqlite_type}")


class SQLiteOpenIndex:
    def __init__(self, datastore: SQLiteDatastore, events_table_name: str) -> None:
        self.datastore = datastore
        self._events = events_table_name
        self._open = open_table(events_table_name)
        self._kinds = kinds_table(events_table_name)
        self._insert = f"INSERT OR IGNORE INTO {self._open} (kind, originator_id, holder) VALUES (?, ?, ?)"
        self._delete = f"DELETE FROM {self._open} WHERE originator_id = ? AND kind = ?"

    def record(self, cursor: SQLiteCursor, rows: Sequence[ChainedRow], holder: str | None) -> None:
        """In the append's transaction: the executions these rows open or close."""
        for originator, enters, leaves in changes_of(rows):
            for kind in enters:
                cursor.execute(self._insert, (kind, originator, holder))
            for kind in leaves:
                cursor.execute(self._delete, (originator, kind))

    def open_ids(self, open_set: OpenSet) -> list[str]:
        return list(self.open_holders(open_set))

    def open_holders(self, open_set: OpenSet) -> dict[str, str | None]:
        # The mark and the rows in one read transaction; no mark: read through, then again.
        for _ in range(2):
            with self.datastore.transaction(commit=False) as cursor:
                cursor.execute(f"SELECT 1 FROM {self._kinds} WHERE kind = ?", (open_set.kind,))
                read = cursor.fetchone() is not None
                cursor.execute(f"SELECT originator_id, holder FROM {self._open} WHERE kind = ?", (open_set.kind,))
                members = {str(row[0]): (str(row[1]) if row[1] is not None else None) for row in cursor.fetchall()}
            if read:
                break
            self._read_through(open_set)
        return members

    def _read_through(self, open_set: OpenSet) -> None:
        """Replace the set's rows by what the events say, once per ledger, under the write lock."""
        # The index changes, the events do not: the connection's kept head stays what it was.
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(f"SELECT 1 FROM {self._kinds} WHERE kind = ?", (open_set.kind,))
            if cursor.fetchone() is not None:
                return
            topics = open_set.topics
            cursor.execute(
                f"SELECT {HASHED_ID}, topic FROM {self._events} "
                f"WHERE topic IN ({','.join('?' * len(topics))}) ORDER BY ledger_position",
                topics,
            )
            members = replay(open_set, ((str(row[0]), str(row[1])) for row in cursor.fetchall()))
            # Rows written since the set was first kept name their holder: keep it.
            cursor.execute(f"SELECT originator_id, holder FROM {self._open} WHERE kind = ?", (open_set.kind,))
            holders = {str(row[0]): row[1] for row in cursor.fetchall()}
            cursor.execute(f"DELETE FROM {self._open} WHERE kind = ?", (open_set.kind,))
            cursor.executemany(self._insert, [(open_set.kind, member, holders.get(member)) for member in sorted(members)])
            cursor.execute(f"SELECT MAX(ledger_position) FROM {self._events}")
            row = cursor.fetchone()
            cursor.execute(
                f"INSERT INTO {self._kinds} (kind, read_through) VALUES (?, ?)", (open_set.kind, int(row[0] or 0) if row else 0)
            )


class SQLiteLeases:
    """The servers' heartbeats (application/abandoned.py), by this host's clock."""

    def __init__(self, datastore: SQLiteDatastore, events_table_name: str) -> None:
        self.datastore = datastore
        self._table = leases_table(events_table_name)

    def renew_lease(self, holder: str) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(
                f"INSERT INTO {self._table} (holder, renewed_at) VALUES (?, ?) "
                "ON CONFLICT (holder) DO UPDATE SET renewed_at = excluded.renewed_at",
                (holder, time.time()),
            )

    def release_lease(self, holder: str) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(f"UPDATE {self._table} SET renewed_at = 0 WHERE holder = ?", (holder,))

    def lease_ages(self) -> dict[str, float]:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(f"SELECT holder, renewed_at FROM {self._table}")
            now = time.time()
            return {str(row[0]): now - float(row[1]) for row in cursor.fetchall()}
