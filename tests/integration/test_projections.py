"""The read models in the ledger's own database, SQLite and Postgres: kept incrementally they
equal a rebuild from the ledger (and the in-memory fake's rows, the same rules in Python); a new
process resumes from the tracking position; the ledgers of earlier releases project; and on a
hardened Postgres the service role keeps the views while the ledger stays append-only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg
import pytest

from mai_safety.application.executions import MaiSafety
from mai_safety.application.read_models import ReadModels
from mai_safety.application.views import LEDGER, ExecutionFilter, ExecutionViews
from mai_safety.application.views_memory import InMemoryViews
from mai_safety.infrastructure.bootstrap import read_models
from mai_safety.ledger.infrastructure.hardening import EVENTS_TABLE

from ..unit.view_scenarios import record_mix
from .cli_helpers import policies_with
from .ledger_helpers import (
    HardenedPostgres,
    hardened_postgres_fixture,  # noqa: F401 - registers the hardened_postgres fixture
    make_app,
    record_execution,
)
from .test_ledger_fixtures import FixtureLedger, old_ledger  # noqa: F401 - registers the old_ledger fixture

EVERYTHING = ExecutionFilter(limit=1 << 30)


def _open_app(database_url: str, tmp_path: Path) -> MaiSafety:
    policies = tmp_path / "policies"
    if not policies.exists():
        policies_with(tmp_path, gate={"confirm": ["*"], "override": ["*"]})
    return make_app(database_url, tmp_path / "data", policies)


def state_of(views: ExecutionViews) -> tuple[Any, ...]:
    return (views.executions(EVERYTHING), views.pending(), views.counts(None, None), views.max_tracking_id(LEDGER))


def test_views_kept_as_the_ledger_grows_equal_the_views_rebuilt_from_it(database_url: str, tmp_path: Path) -> None:
    app = _open_app(database_url, tmp_path)
    try:
        models = read_models(app)
        for chunk in range(20):  # 700 executions, 2,500 events, the views caught up after each 35
            record_mix(app, 35, start=chunk * 35)
            models.catch_up()
        head = app.recorder.max_notification_id() or 0
        assert head >= 2500
        kept = state_of(models.views)
        assert models.rebuild() == head
        assert state_of(models.views) == kept
        in_memory = ReadModels(app.recorder, app.mapper, InMemoryViews())
        in_memory.catch_up()
        assert state_of(in_memory.views) == kept  # the SQL and the fake apply the same rules
    finally:
        app.close()


def test_a_new_process_resumes_from_the_tracking_position_without_counting_twice(database_url: str, tmp_path: Path) -> None:
    app = _open_app(database_url, tmp_path)
    try:
        record_mix(app, 14)
        read_models(app).catch_up()
        position = app.recorder.max_notification_id() or 0
        record_mix(app, 14, start=14)
    finally:
        app.close()
    again = _open_app(database_url, tmp_path)  # another process: the same database, new connections
    try:
        models = read_models(again)
        head = again.recorder.max_notification_id() or 0
        assert models.lag() == {"head": head, "position": position, "lag": head - position}
        assert models.catch_up() == head - position
        assert models.catch_up() == 0
        kept = state_of(models.views)
        models.rebuild()
        assert state_of(models.views) == kept
        assert sum(count for _, figure, _, count in kept[2] if figure == "level") == 28
    finally:
        again.close()


def test_the_ledgers_of_earlier_releases_project_every_execution(old_ledger: FixtureLedger) -> None:  # noqa: F811
    app = old_ledger.app()
    try:
        models = read_models(app)
        models.catch_up()
        rows = models.views.executions(EVERYTHING)
        assert [row.status for row in reversed(rows)] == list(old_ledger.statuses)
        assert len(models.views.pending()) == old_ledger.statuses.count("awaiting_override")
        assert models.lag()["lag"] == 0
    finally:
        app.close()


@pytest.mark.postgres
def test_the_service_role_keeps_the_views_but_still_cannot_change_the_ledger(
    hardened_postgres: HardenedPostgres, tmp_path: Path
) -> None:
    app = make_app(hardened_postgres.service_url, tmp_path / "data")
    try:
        record_execution(app, samples=2)
        models = read_models(app)
        assert models.catch_up() > 0
        assert models.rebuild() > 0  # DELETE on the views and their tracking row
        assert len(models.views.executions(EVERYTHING)) == 1
    finally:
        app.close()
    with psycopg.connect(hardened_postgres.service_url) as connection:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            connection.execute(f"UPDATE {EVENTS_TABLE} SET state = state")
