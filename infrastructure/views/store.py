"""The views' store beside a ledger: the adapter for the ledger's own database (its datastore,
so one pool and one lock), with its tables made if they are missing (docs/decisions/0021)."""

from __future__ import annotations

from typing import Any

from eventsourcing.sqlite import SQLiteDatastore

from mai_safety.application.views import ExecutionViews


def views_beside(recorder: Any) -> ExecutionViews:
    datastore = recorder.datastore
    views: ExecutionViews
    if isinstance(datastore, SQLiteDatastore):
        from .sqlite import SQLiteExecutionViews

        views = SQLiteExecutionViews(datastore)
    else:
        from .postgres import PostgresExecutionViews  # only Postgres users import psycopg

        views = PostgresExecutionViews(datastore)
    views.create_table()
    return views
