"""The index of open executions (docs/decisions/0019): kept by the ledger in the transaction of the
events that open and close them, on SQLite and on an append-only Postgres written by the service
role; a ledger written before it is read through once; rows changed underneath are not trusted
where that matters (recovery still finds the container) and are put right by the read-through.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from uuid import UUID

import psycopg
import pytest
from psycopg import sql

from mai_safety.application.errors import ConfigurationError
from mai_safety.application.open_sets import AWAITING, RUNNING, scan_open_ids
from mai_safety.application.executions import MaiSafety
from mai_safety.domain.assessment import Assessment, Submission
from mai_safety.domain.execution import Execution
from mai_safety.domain.levels import Provenance, RiskLevel
from mai_safety.infrastructure.bootstrap import harden_ledger
from mai_safety.ledger.infrastructure.hardening import EVENTS_TABLE
from mai_safety.ledger.infrastructure.open_index import kinds_table, open_table

from .ledger_helpers import (
    HardenedPostgres,
    hardened_postgres_fixture,  # noqa: F401 - registers the hardened_postgres fixture
    make_app,
    record_execution,
    record_waiting,
)

FIXTURE = Path(__file__).parent.parent / "fixtures" / "ledger-6441331"


def _ids(*values: str) -> list[UUID]:
    return sorted(UUID(value) for value in values)


def _index_agrees_with_the_events(app: MaiSafety) -> None:
    for open_set in (RUNNING, AWAITING):
        assert sorted(UUID(member) for member in app.recorder.open_ids(open_set)) == sorted(  # type: ignore[attr-defined]
            scan_open_ids(app.recorder, open_set)
        )


def _follows_the_ledger(app: MaiSafety) -> None:
    ended = record_execution(app)
    running = record_execution(app, end=False, samples=2)
    waiting = record_waiting(app)
    assert app.running_ids() == _ids(running)
    assert app.awaiting_ids() == _ids(waiting)
    _index_agrees_with_the_events(app)

    execution = app._get(UUID(running))  # noqa: SLF001
    execution.complete({"exit_code": 0, "stdout": "", "stderr": "", "duration_s": 0.1})
    app.save(execution)
    question = app._get(UUID(waiting))  # noqa: SLF001
    question.terminate("denied", {"detail": "not today"})
    app.save(question)
    assert app.running_ids() == [] and app.awaiting_ids() == []
    _index_agrees_with_the_events(app)
    assert ended not in {str(each) for each in app.running_ids()}


def test_the_index_follows_executions_as_they_start_wait_and_end(database_url: str, tmp_path: Path) -> None:
    app = make_app(database_url, tmp_path / "data")
    try:
        _follows_the_ledger(app)
        assert app.audit.verify().intact
    finally:
        app.close()


@pytest.mark.postgres
def test_the_service_role_of_an_append_only_postgres_keeps_the_index(
    hardened_postgres: HardenedPostgres, tmp_path: Path
) -> None:
    app = make_app(hardened_postgres.service_url, tmp_path / "data")
    try:
        _follows_the_ledger(app)
    finally:
        app.close()


@pytest.mark.postgres
def test_a_postgres_ledger_made_before_the_index_needs_init_postgres_once_then_is_read_through(
    hardened_postgres: HardenedPostgres, tmp_path: Path
) -> None:
    first = make_app(hardened_postgres.service_url, tmp_path / "data")
    try:
        running = record_execution(first, end=False)
        waiting = record_waiting(first)
    finally:
        first.close()
    with psycopg.connect(**hardened_postgres.owner) as connection, connection.transaction():
        for table in (open_table(EVENTS_TABLE), kinds_table(EVENTS_TABLE)):
            connection.execute(sql.SQL("DROP TABLE {}").format(sql.Identifier(table)))

    with pytest.raises(ConfigurationError, match="before the index of open executions.*init-postgres"):
        make_app(hardened_postgres.service_url, tmp_path / "data")
    harden_ledger(hardened_postgres.owner_url, hardened_postgres.service_role)
    app = make_app(hardened_postgres.service_url, tmp_path / "data")
    try:
        assert app.running_ids() == _ids(running) and app.awaiting_ids() == _ids(waiting)
        assert app.audit.verify().intact
    finally:
        app.close()


def test_the_ledger_written_by_6441331_is_read_through_once_and_its_waiting_execution_found(tmp_path: Path) -> None:
    folder = tmp_path / "old"
    shutil.copytree(FIXTURE, folder)
    (folder / "signing-key.pem").chmod(0o600)
    database = folder / "ledger.sqlite"
    with sqlite3.connect(database) as old:
        (waiting,) = old.execute("SELECT originator_id FROM stored_events WHERE ledger_position = 16").fetchone()
    app = make_app(f"sqlite:///{database}", folder)
    try:
        assert app.awaiting_ids() == _ids(waiting) and app.running_ids() == []
        running = record_execution(app, end=False)
        assert app.running_ids() == _ids(running)
        assert app.audit.verify().intact
    finally:
        app.close()
    with sqlite3.connect(database) as ledger:
        read = dict(ledger.execute(f"SELECT kind, read_through FROM {kinds_table('stored_events')}").fetchall())
    assert read == {"awaiting": 16, "running": 16}


def test_rows_changed_underneath_before_a_read_through_are_replaced_by_what_the_events_say(tmp_path: Path) -> None:
    database = tmp_path / "ledger.sqlite"
    app = make_app(f"sqlite:///{database}", tmp_path / "data")
    try:
        running = record_execution(app, end=False)
        assert app.running_ids() == _ids(running)
    finally:
        app.close()
    # A writer that did not keep the index (or someone with the file) leaves it wrong and unread.
    index, kinds = open_table("stored_events"), kinds_table("stored_events")
    with sqlite3.connect(database) as ledger:
        ledger.execute(f"DELETE FROM {index}")
        ledger.execute(f"INSERT INTO {index} (kind, originator_id) VALUES ('running', '00000000-0000-4000-8000-000000000000')")
        ledger.execute(f"DELETE FROM {kinds}")
    again = make_app(f"sqlite:///{database}", tmp_path / "data")
    try:
        assert again.running_ids() == _ids(running)
    finally:
        again.close()


@pytest.mark.postgres
def test_index_tables_emptied_under_a_live_service_are_read_through_again(
    hardened_postgres: HardenedPostgres, tmp_path: Path
) -> None:
    # Postgres empties unlogged tables when it recovers from a crash, and a replica promoted in its
    # place starts with them empty: the mark goes with the rows, so the next question reads through.
    app = make_app(hardened_postgres.service_url, tmp_path / "data")
    try:
        running = record_execution(app, end=False)
        assert app.running_ids() == _ids(running)
        with psycopg.connect(**hardened_postgres.owner) as connection, connection.transaction():
            connection.execute(
                sql.SQL("TRUNCATE {}, {}").format(
                    sql.Identifier(open_table(EVENTS_TABLE)), sql.Identifier(kinds_table(EVENTS_TABLE))
                )
            )
        assert app.running_ids() == _ids(running)
    finally:
        app.close()


def _keeps_pending_with_their_holder_and_the_lease(app: MaiSafety) -> None:
    from mai_safety.application.open_sets import PENDING, open_holders

    submission = Submission.from_bytes(b"print(2)\n", Provenance.MAI, 1 << 20)
    pending = Execution.assess(submission, Assessment(RiskLevel.LOW, analyzers=("fake",)))
    app.save(pending)  # recorded, on its way to start
    waiting = record_waiting(app)  # Assessed and OverrideRequested together: waits for a person, not pending
    assert open_holders(app.recorder, PENDING) == {pending.id: app.sandbox.supervisor_id}
    assert UUID(waiting) not in open_holders(app.recorder, PENDING)
    pending.terminate("not_started", {"detail": "test"})
    app.save(pending)
    assert open_holders(app.recorder, PENDING) == {}

    app.renew_lease()
    app.renew_lease()
    ages = app.recorder.lease_ages()  # type: ignore[attr-defined]
    assert 0 <= ages[app.sandbox.supervisor_id] < 60
    app.release_lease()
    assert app.recorder.lease_ages()[app.sandbox.supervisor_id] > 1e6  # type: ignore[attr-defined]


def test_the_index_keeps_executions_on_their_way_to_start_with_who_holds_them(database_url: str, tmp_path: Path) -> None:
    app = make_app(database_url, tmp_path / "data")
    try:
        _keeps_pending_with_their_holder_and_the_lease(app)
    finally:
        app.close()


@pytest.mark.postgres
def test_the_service_role_of_an_append_only_postgres_keeps_pending_executions_and_its_lease(
    hardened_postgres: HardenedPostgres, tmp_path: Path
) -> None:
    app = make_app(hardened_postgres.service_url, tmp_path / "data")
    try:
        _keeps_pending_with_their_holder_and_the_lease(app)
    finally:
        app.close()
