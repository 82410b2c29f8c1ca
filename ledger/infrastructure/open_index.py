"""The index of open executions beside the events (docs/decisions/0019; application/open_sets.py).

Two tables beside the events table, written by the recorders in the transaction of the append
that opens or closes an execution:

- ``<events>_open (originator_id, kind, holder, PRIMARY KEY (originator_id, kind))``: who is
  open, and which process opened it (``holder``, its supervisor id; NULL in rows read through);
- ``<events>_open_kinds (kind PRIMARY KEY, read_through)``: which sets have been read through the
  ledger, up to which position. Every question reads a set's mark with its rows; without the
  mark the rows are not trusted (a ledger made before the index, or index tables emptied, on
  Postgres by crash recovery since they are unlogged) and the set is read through under the
  writers' lock, its rows replaced by what the events say.

On Postgres the service role may SELECT, INSERT and DELETE the first and SELECT and INSERT the
second (``hardening.py``); neither carries the append-only triggers: they are not the record.
Beside them, ``<events>_leases (holder, renewed_at)``: each serving process's heartbeat
(application/abandoned.py), which the service role may also UPDATE; not the record either.
"""

from __future__ import annotations

from collections.abc import Sequence

from mai_safety.application.open_sets import OPEN_SETS, OpenSet, index_changes

from .chaining import ChainedRow

OPEN_SUFFIX = "_open"
KINDS_SUFFIX = "_open_kinds"
LEASES_SUFFIX = "_leases"
#: Columns added to the index made before they were: (table suffix, column, SQLite type, Postgres
#: type). ``holder``: the supervisor id of the process that opened the row (application/abandoned.py).
INDEX_COLUMNS = (("_open", "holder", "TEXT", "text"),)


def open_table(events_table: str) -> str:
    return f"{events_table}{OPEN_SUFFIX}"


def kinds_table(events_table: str) -> str:
    return f"{events_table}{KINDS_SUFFIX}"


def leases_table(events_table: str) -> str:
    """The servers' leases: one row per serving process, its heartbeat (application/abandoned.py)."""
    return f"{events_table}{LEASES_SUFFIX}"


def leases_tables() -> list[str]:
    """Postgres's statement for the leases table, with ``{schema}`` and ``{leases}`` to fill. The
    time is the database's (``clock_timestamp()``, seconds), so that no two hosts' clocks meet."""
    return [
        "CREATE TABLE IF NOT EXISTS {schema}.{leases} (holder text PRIMARY KEY, renewed_at double precision NOT NULL)"
    ]


def open_index_tables() -> list[str]:
    """Postgres's statements for both tables, with ``{schema}``, ``{open}`` and ``{kinds}`` to fill."""
    return [
        # Keyed by execution first: an ending's DELETE finds its rows by the index, never by
        # scanning the rows ended executions left until autovacuum (a scan cost appends 4%).
        "CREATE UNLOGGED TABLE IF NOT EXISTS {schema}.{open} (originator_id text NOT NULL, kind text NOT NULL, "
        "holder text, PRIMARY KEY (originator_id, kind))",
        "CREATE UNLOGGED TABLE IF NOT EXISTS {schema}.{kinds} (kind text PRIMARY KEY, read_through bigint NOT NULL)",
    ]


def changes_of(
    rows: Sequence[ChainedRow], sets: Sequence[OpenSet] = OPEN_SETS
) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """What appending these rows does to the index: (execution id, sets entered, sets left)."""
    return index_changes(sets, ((row.originator, row.stored.topic) for row in rows))
