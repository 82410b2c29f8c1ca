"""What the Postgres ledger answers to readers (verification, replay, reports): its head, its rows
with both chain hashes and MACs, and its checkpoints. A part the recorder in postgres.py holds."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.postgres import PostgresDatastore
from psycopg import Cursor
from psycopg.rows import TupleRow, tuple_row
from psycopg.sql import SQL, Identifier

from mai_safety.ledger.application.ports import LedgerHead
from mai_safety.ledger.domain.chain import ChainRecord
from mai_safety.ledger.domain.checkpoint import Checkpoint

from .chaining import CHECKPOINT_COLUMNS, checkpoint_from_row, read_ahead

_NO_LIMIT = 1 << 62


class PostgresLedgerReads:
    """The recorder's read side, over its datastore; ``names`` are the schema and tables as SQL
    identifiers (postgres.py)."""

    def __init__(self, datastore: PostgresDatastore, names: dict[str, Identifier]) -> None:
        self.datastore = datastore
        checkpoint_columns = SQL(CHECKPOINT_COLUMNS)
        self._select_head = SQL(
            "SELECT h.ledger_position, h.ledger_hash, c.* FROM (SELECT 1) AS one "
            "LEFT JOIN LATERAL (SELECT ledger_position, ledger_hash FROM {schema}.{table} "
            "ORDER BY ledger_position DESC LIMIT 1) AS h ON true "
            "LEFT JOIN LATERAL (SELECT {columns} FROM {schema}.{checkpoints} "
            "ORDER BY sequence DESC LIMIT 1) AS c ON true"
        ).format(columns=checkpoint_columns, **names)
        self._select_event_hash = SQL(
            "SELECT event_hash FROM {schema}.{table} WHERE originator_id = %s AND originator_version = %s"
        ).format(**names)
        # The id as text, formatted by the server: the hashed form, with no UUID object to make per
        # row (verification reads every row; this and binary results make reading a third faster).
        record_columns = SQL(
            "ledger_position, originator_id::text, originator_version, topic, state, event_hash, ledger_hash, event_mac"
        )
        self._select_chain = SQL(
            "SELECT {columns} FROM {schema}.{table} WHERE ledger_position > %s AND ledger_position <= %s "
            "ORDER BY ledger_position LIMIT %s"
        ).format(columns=record_columns, **names)
        self._select_execution = SQL(
            "SELECT {columns} FROM {schema}.{table} WHERE originator_id = %s ORDER BY originator_version"
        ).format(columns=record_columns, **names)
        self._select_ledger_hash = SQL("SELECT ledger_hash FROM {schema}.{table} WHERE ledger_position = %s").format(
            **names
        )
        self._select_checkpoints = SQL(
            "SELECT {columns} FROM {schema}.{checkpoints} WHERE sequence > %s AND sequence <= %s "
            "AND ledger_position >= %s ORDER BY sequence LIMIT %s"
        ).format(columns=checkpoint_columns, **names)
        self._select_checkpoint_before = SQL(
            "SELECT {columns} FROM {schema}.{checkpoints} WHERE ledger_position < %s ORDER BY sequence DESC LIMIT 1"
        ).format(columns=checkpoint_columns, **names)
        self._select_checkpoint_covering = SQL(
            "SELECT {columns} FROM {schema}.{checkpoints} WHERE ledger_position >= %s ORDER BY sequence LIMIT 1"
        ).format(columns=checkpoint_columns, **names)
        self._select_same_signature = SQL(
            "SELECT sequence FROM {schema}.{checkpoints} WHERE signature = %s AND sequence <> %s ORDER BY sequence LIMIT 1"
        ).format(**names)

    def _read_head(self, cursor: Cursor[Any]) -> tuple[tuple[int, bytes] | None, Checkpoint | None]:
        """The head and the newest checkpoint as the database holds them, in one statement."""
        cursor.execute(self._select_head, prepare=True)
        row = cursor.fetchone()
        assert row is not None
        head = (int(row[0]), bytes(row[1])) if row[0] is not None else None
        checkpoint = checkpoint_from_row(row[2:]) if row[2] is not None else None
        return head, checkpoint

    def fetch(self, statement: SQL | Any, params: Sequence[Any]) -> list[TupleRow]:
        # Binary results: bytea arrives as bytes rather than hex text to decode (a third faster
        # to read the whole ledger).
        with self.datastore.get_connection() as connection, connection.cursor(row_factory=tuple_row, binary=True) as cursor:
            cursor.execute(statement, params, prepare=True)
            return cursor.fetchall()

    def head(self) -> LedgerHead:
        with self.datastore.get_connection() as connection, connection.cursor(row_factory=tuple_row) as cursor:
            head, checkpoint = self._read_head(cursor)  # one statement: one snapshot
        position, digest = head if head is not None else (0, bytes(32))
        return LedgerHead(position, digest, checkpoint)

    def select_chain(self, after_position: int, limit: int, up_to: int | None = None) -> list[ChainRecord]:
        rows = self.fetch(self._select_chain, (after_position, _NO_LIMIT if up_to is None else up_to, limit))
        return [ChainRecord._make(row) for row in rows]

    def iter_chain(self, after_position: int = 0, up_to: int | None = None, page: int = 5000) -> Iterator[ChainRecord]:
        """Every record after ``after_position``, the next page read while this one is checked."""
        return read_ahead(lambda after: self.select_chain(after, page, up_to), after_position, page)

    def select_execution(self, originator_id: str) -> list[ChainRecord]:
        return [ChainRecord._make(row) for row in self.fetch(self._select_execution, (self.column_id(originator_id),))]

    def event_hash_of(self, originator_id: str, version: int) -> bytes | None:
        rows = self.fetch(self._select_event_hash, (self.column_id(originator_id), version))
        return bytes(rows[0][0]) if rows else None

    def ledger_hash_at(self, position: int) -> bytes | None:
        rows = self.fetch(self._select_ledger_hash, (position,))
        return bytes(rows[0][0]) if rows else None

    def select_checkpoints(
        self, after_sequence: int, limit: int, *, from_position: int = 0, up_to_sequence: int | None = None
    ) -> list[Checkpoint]:
        upper = _NO_LIMIT if up_to_sequence is None else up_to_sequence
        rows = self.fetch(self._select_checkpoints, (after_sequence, upper, from_position, limit))
        return [checkpoint_from_row(row) for row in rows]

    def checkpoint_before(self, position: int) -> Checkpoint | None:
        rows = self.fetch(self._select_checkpoint_before, (position,))
        return checkpoint_from_row(rows[0]) if rows else None

    def checkpoint_covering(self, position: int) -> Checkpoint | None:
        rows = self.fetch(self._select_checkpoint_covering, (position,))
        return checkpoint_from_row(rows[0]) if rows else None

    def checkpoint_with_signature(self, signature: bytes, other_than: int) -> int | None:
        rows = self.fetch(self._select_same_signature, (signature, other_than))
        return int(rows[0][0]) if rows else None

    def column_id(self, originator_id: str) -> UUID | str:
        return UUID(originator_id) if self.datastore.originator_id_type == "uuid" else originator_id
