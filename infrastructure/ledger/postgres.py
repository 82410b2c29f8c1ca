"""The production ledger: eventsourcing's Postgres recorder with both chain hashes on every row.

Selected by ``PERSISTENCE_MODULE=mai_safety.infrastructure.ledger.postgres``. The ledger chain is
computed inside the insert transaction, after the ``LOCK TABLE ... IN EXCLUSIVE MODE`` that the
library already takes to make notification ids follow commit order: under that lock, reading the
head and appending after it cannot interleave with another writer, thread or process.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing import postgres as es_postgres
from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg.sql import SQL, Identifier

from mai_safety.application.ports import ChainSource
from mai_safety.domain.chain import ChainRecord

from .chaining import canonical_id, chain_batch


class ChainedPostgresApplicationRecorder(PostgresApplicationRecorder, ChainSource):
    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        names = {
            "schema": Identifier(self.datastore.schema),
            "table": Identifier(self.events_table_name),
        }
        self.sql_create_statements[self.create_table_statement_index] = SQL(
            "CREATE TABLE IF NOT EXISTS {schema}.{table} ("
            "originator_id {originator_id_type} NOT NULL, "
            "originator_version bigint NOT NULL, "
            "topic text, "
            "state bytea, "
            "notification_id bigserial, "
            "ledger_position bigint NOT NULL, "
            "event_hash bytea NOT NULL, "
            "ledger_hash bytea NOT NULL, "
            "PRIMARY KEY (originator_id, originator_version))"
        ).format(originator_id_type=Identifier(self.datastore.originator_id_type), **names)
        self.sql_create_statements.append(
            SQL(
                "CREATE UNIQUE INDEX IF NOT EXISTS {index} ON {schema}.{table} (ledger_position ASC)"
            ).format(index=Identifier(f"{self.events_table_name}_ledger_position_idx"), **names)
        )
        self._select_head = SQL(
            "SELECT ledger_position, ledger_hash FROM {schema}.{table} ORDER BY ledger_position DESC LIMIT 1"
        ).format(**names)
        self._select_previous = SQL(
            "SELECT event_hash FROM {schema}.{table} WHERE originator_id = %s AND originator_version = %s"
        ).format(**names)
        self._insert_chained = SQL(
            "INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state, "
            "ledger_position, event_hash, ledger_hash) VALUES (%s, %s, %s, %s, %s, %s, %s) "
            "RETURNING notification_id"
        ).format(**names)
        self._select_chain = SQL(
            "SELECT ledger_position, originator_id, originator_version, topic, state, event_hash, ledger_hash "
            "FROM {schema}.{table} WHERE ledger_position > %s ORDER BY ledger_position LIMIT %s"
        ).format(**names)

    @retry((InterfaceError, OperationalError), max_attempts=3, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if not stored_events:
            return []
        with self.datastore.get_connection() as connection, connection.transaction(), connection.cursor() as cursor:
            self._lock_table(cursor)
            self._notify_channel(cursor)
            cursor.execute(self._select_head, prepare=True)
            row = cursor.fetchone()
            head = (row["ledger_position"], bytes(row["ledger_hash"])) if row else None

            def previous(originator_id: UUID | str, version: int) -> bytes | None:
                cursor.execute(self._select_previous, (originator_id, version), prepare=True)
                found = cursor.fetchone()
                return bytes(found["event_hash"]) if found else None

            notification_ids: list[int] = []
            for chained in chain_batch(stored_events, head, previous):
                stored = chained.stored
                cursor.execute(
                    self._insert_chained,
                    (
                        stored.originator_id,
                        stored.originator_version,
                        stored.topic,
                        stored.state,
                        chained.position,
                        chained.event_hash,
                        chained.ledger_hash,
                    ),
                    prepare=True,
                )
                fetched = cursor.fetchone()
                assert fetched is not None
                notification_ids.append(fetched["notification_id"])
            return notification_ids

    def select_chain(self, after_position: int, limit: int) -> list[ChainRecord]:
        with self.datastore.get_connection() as connection, connection.cursor() as cursor:
            cursor.execute(self._select_chain, (after_position, limit), prepare=True)
            return [
                ChainRecord(
                    position=row["ledger_position"],
                    originator_id=canonical_id(row["originator_id"]),
                    version=row["originator_version"],
                    topic=row["topic"],
                    state=bytes(row["state"]),
                    event_hash=bytes(row["event_hash"]),
                    ledger_hash=bytes(row["ledger_hash"]),
                )
                for row in cursor.fetchall()
            ]


class Factory(es_postgres.PostgresFactory):  # the module must hold exactly one factory class
    application_recorder_class = ChainedPostgresApplicationRecorder
