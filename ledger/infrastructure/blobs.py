"""The blob store beside the ledger: output kept out of events (docs/decisions/0014), in a table of
the ledger's own database, reached through the recorder's own connections (same file or database,
same timeouts, no second pool).

The table is ``<events table>_blobs (sha256 text primary key, size, data)``, made with the ledger's
other tables by the recorders. Rows are inserted if absent and never updated or deleted: on
Postgres the service role may only INSERT and SELECT it, and the append-only triggers refuse
UPDATE, DELETE and TRUNCATE to anyone (``hardening.py``). SQLite, as for its events, stops nobody
who can write the file: ``audit verify`` is what catches a blob changed or removed there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mai_safety.ledger.application.ports import BlobStore, BlobTooLarge
from mai_safety.domain.output import blob_sha256

if TYPE_CHECKING:  # Postgres's driver is imported only where Postgres is used
    from eventsourcing.postgres import PostgresDatastore
    from eventsourcing.sqlite import SQLiteDatastore

#: eventsourcing names a Postgres events table after the application: ``MaiSafety`` (a unit test
#: holds the two together; the wing imports nothing of the execution side's application).
EVENTS_TABLE = "maisafety_events"

#: The table's name beside an events table (both recorders and the hardening use it).
BLOBS_SUFFIX = "_blobs"


def blobs_table(events_table: str) -> str:
    return f"{events_table}{BLOBS_SUFFIX}"


class SQLiteBlobStore(BlobStore):
    def __init__(self, datastore: SQLiteDatastore, table: str) -> None:
        self._datastore = datastore
        self._insert = f"INSERT OR IGNORE INTO {table} (sha256, size, data) VALUES (?, ?, ?)"
        # The stored length, not the stated size: a row changed underneath may say anything. A
        # blob is read only once it is known to be within the bound.
        self._select_length = f"SELECT length(CAST(data AS BLOB)) FROM {table} WHERE sha256 = ?"
        self._select_data = f"SELECT CAST(data AS BLOB) FROM {table} WHERE sha256 = ?"

    def put(self, data: bytes) -> str:
        sha256 = blob_sha256(data)
        with self._datastore.transaction(commit=True) as cursor:
            cursor.execute(self._insert, (sha256, len(data), data))
        return sha256

    def get(self, sha256: str, max_bytes: int) -> bytes | None:
        with self._datastore.transaction(commit=False) as cursor:
            cursor.execute(self._select_length, (sha256,))
            found = cursor.fetchone()
            if found is None:
                return None
            size = int(found[0] or 0)
            if size > max_bytes:
                raise BlobTooLarge(sha256, size, max_bytes)
            cursor.execute(self._select_data, (sha256,))
            row = cursor.fetchone()
            return bytes(row[0] or b"") if row is not None else None


class PostgresBlobStore(BlobStore):
    def __init__(self, datastore: PostgresDatastore, schema: str, table: str) -> None:
        self._datastore = datastore
        qualified = f'"{schema}"."{table}"'
        # DO NOTHING needs no UPDATE right, and fires no update trigger: insert if absent.
        self._insert = f"INSERT INTO {qualified} (sha256, size, data) VALUES (%s, %s, %s) ON CONFLICT (sha256) DO NOTHING"
        self._select_length = f"SELECT octet_length(data) FROM {qualified} WHERE sha256 = %s"
        self._select_data = f"SELECT data FROM {qualified} WHERE sha256 = %s"

    def put(self, data: bytes) -> str:
        sha256 = blob_sha256(data)
        with self._datastore.get_connection() as connection, connection.transaction():
            connection.execute(self._insert, (sha256, len(data), data))
        return sha256

    def get(self, sha256: str, max_bytes: int) -> bytes | None:
        with self._datastore.get_connection() as connection, connection.transaction():
            found = connection.execute(self._select_length, (sha256,)).fetchone()
            if found is None:
                return None
            size = int(_first(found) or 0)
            if size > max_bytes:
                raise BlobTooLarge(sha256, size, max_bytes)
            cursor = connection.cursor(binary=True)
            row = cursor.execute(self._select_data, (sha256,)).fetchone()
            return bytes(_first(row) or b"") if row is not None else None


def _first(row: Any) -> Any:
    """The first column of a row, whichever row factory the library's connection uses."""
    return next(iter(row.values())) if isinstance(row, dict) else row[0]
