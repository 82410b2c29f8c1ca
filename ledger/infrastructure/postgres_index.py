"""The Postgres recorder's parts beside the record (open_index.py): the index of open executions,
kept by each append in its transaction, and the servers' leases. Parts postgres.py's recorder holds."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError
from eventsourcing.postgres import PostgresDatastore
from eventsourcing.utils import retry
from psycopg import Connection, Cursor
from psycopg.rows import dict_row, tuple_row
from psycopg.sql import SQL, Identifier

from mai_safety.application.open_sets import OpenSet, replay

from .chaining import ChainedRow
from .open_index import changes_of

Fetch = Callable[[Any, Sequence[Any]], list[Any]]


class PostgresOpenIndex:
    """``lock`` takes the writers' lock on a cursor (the library's ``_lock_table``); ``fetch``
    runs a statement on a connection of its own and returns the rows."""

    def __init__(
        self, datastore: PostgresDatastore, names: dict[str, Identifier], lock: Callable[[Cursor[Any]], None], fetch: Fetch
    ) -> None:
        self.datastore = datastore
        self._lock = lock
        self._fetch = fetch
        self._insert = SQL(
            "INSERT INTO {schema}.{open} (kind, originator_id, holder) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING"
        ).format(**names)
        self._delete = SQL("DELETE FROM {schema}.{open} WHERE originator_id = %s AND kind = ANY(%s)").format(**names)
        self._select = SQL(
            "SELECT EXISTS (SELECT 1 FROM {schema}.{kinds} WHERE kind = %s), "
            "ARRAY(SELECT originator_id FROM {schema}.{open} WHERE kind = %s ORDER BY originator_id), "
            "ARRAY(SELECT holder FROM {schema}.{open} WHERE kind = %s ORDER BY originator_id)"
        ).format(**names)
        self._holders_of = SQL("SELECT originator_id, holder FROM {schema}.{open} WHERE kind = %s").format(**names)
        self._clear = SQL("DELETE FROM {schema}.{open} WHERE kind = %s").format(**names)
        self._kind_read = SQL("SELECT 1 FROM {schema}.{kinds} WHERE kind = %s").format(**names)
        self._kind_insert = SQL(
            "INSERT INTO {schema}.{kinds} (kind, read_through) "
            "SELECT %s, coalesce(max(ledger_position), 0) FROM {schema}.{table}"
        ).format(**names)
        self._select_set_events = SQL(
            "SELECT originator_id::text, topic FROM {schema}.{table} WHERE topic = ANY(%s) ORDER BY ledger_position"
        ).format(**names)

    def record(self, connection: Connection[Any], rows: Sequence[ChainedRow], holder: str | None) -> None:
        """In the append's transaction: the executions these rows open or close."""
        for originator, enters, leaves in changes_of(rows):
            for kind in enters:
                connection.execute(self._insert, (kind, originator, holder), prepare=True)
            if leaves:  # one statement for every set an ending closes
                connection.execute(self._delete, (originator, list(leaves)), prepare=True)

    def open_ids(self, open_set: OpenSet) -> list[str]:
        return list(self.open_holders(open_set))

    def open_holders(self, open_set: OpenSet) -> dict[str, str | None]:
        # The mark and the rows in one snapshot. No mark: never read through, or the unlogged
        # tables were emptied by a crash of the database (or someone): read through, then again.
        for _ in range(2):
            ((read, members, holders),) = self._fetch(self._select, (open_set.kind,) * 3)
            if read:
                break
            self._read_through(open_set)
        return {str(member): (str(holder) if holder is not None else None) for member, holder in zip(members, holders)}

    @retry((InterfaceError, OperationalError), max_attempts=3, wait=0.2)
    def _read_through(self, open_set: OpenSet) -> None:
        """Replace the set's rows by what the events say, once per ledger, under the writers' lock."""
        with self.datastore.get_connection() as connection, connection.transaction():
            self._lock(connection.cursor(row_factory=dict_row))
            cursor = connection.cursor(row_factory=tuple_row)
            cursor.execute(self._kind_read, (open_set.kind,))
            if cursor.fetchone() is None:
                cursor.execute(self._select_set_events, (list(open_set.topics),))
                members = replay(open_set, ((str(row[0]), str(row[1])) for row in cursor.fetchall()))
                # Rows written since the set was first kept name their holder: keep it.
                cursor.execute(self._holders_of, (open_set.kind,))
                holders = {str(row[0]): row[1] for row in cursor.fetchall()}
                cursor.execute(self._clear, (open_set.kind,))
                cursor.executemany(self._insert, [(open_set.kind, member, holders.get(member)) for member in sorted(members)])
                cursor.execute(self._kind_insert, (open_set.kind,))


class PostgresLeases:
    """The servers' heartbeats (application/abandoned.py), by the database's clock."""

    def __init__(self, datastore: PostgresDatastore, names: dict[str, Identifier], fetch: Fetch) -> None:
        self.datastore = datastore
        self._fetch = fetch
        self._renew = SQL(
            "INSERT INTO {schema}.{leases} (holder, renewed_at) VALUES (%s, extract(epoch from clock_timestamp())) "
            "ON CONFLICT (holder) DO UPDATE SET renewed_at = excluded.renewed_at"
        ).format(**names)
        self._release = SQL("UPDATE {schema}.{leases} SET renewed_at = 0 WHERE holder = %s").format(**names)
        self._ages = SQL("SELECT holder, extract(epoch from clock_timestamp()) - renewed_at FROM {schema}.{leases}").format(
            **names
        )

    def renew_lease(self, holder: str) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(self._renew, (holder,))

    def release_lease(self, holder: str) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(self._release, (holder,))

    def lease_ages(self) -> dict[str, float]:
        return {str(holder): float(age) for holder, age in self._fetch(self._ages, ())}
