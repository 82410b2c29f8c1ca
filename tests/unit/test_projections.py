"""The read models kept by the projection, on the in-memory views (the fake port), from a ledger
written through the application with fake ports."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import date, datetime, timezone

import pytest
from eventsourcing.persistence import IntegrityError, Tracking

from mai_safety.application.access import acting_as
from mai_safety.application.audit_figures import percentiles
from mai_safety.application.audit_report import LedgerAnchor
from mai_safety.application.errors import InvalidQuery
from mai_safety.application.executions import MaiSafety
from mai_safety.application.read_models import ReadModels
from mai_safety.application.views import LEDGER, Count, ExecutionFilter, ViewChange
from mai_safety.application.views_memory import InMemoryViews
from mai_safety.domain.access import Principal, Role
from mai_safety.domain.levels import RiskLevel

from .fakes import FakeAssessor, FakeSandbox
from .test_application import GATE
from .view_scenarios import OPEN_RULES, counted_from_events, record_mix

NOW = datetime(2030, 1, 1, tzinfo=timezone.utc)


def _app() -> MaiSafety:
    env = {"PERSISTENCE_MODULE": "mai_safety.ledger.infrastructure.sqlite", "SQLITE_DBNAME": f"file:{uuid.uuid4().hex}?mode=memory&cache=shared"}
    return MaiSafety(assessor=FakeAssessor(), sandbox=FakeSandbox(), policy=replace(GATE, rules=OPEN_RULES), env=env)


def _models(app: MaiSafety) -> ReadModels:
    return ReadModels(app.recorder, app.mapper, InMemoryViews())


def _state(views: InMemoryViews) -> tuple[object, ...]:
    return (dict(views.rows), dict(views.waiting), dict(views.figures), views.max_tracking_id(LEDGER))


def test_every_kind_of_execution_appears_with_its_status_and_the_waiting_one_is_pending() -> None:
    app = _app()
    record_mix(app, 7)
    models = _models(app)
    rows = sorted(row.level + "/" + row.status for row in models.executions(ExecutionFilter()))
    assert rows == sorted([
        "LOW/completed", "MEDIUM/completed", "HIGH/completed", "BLOCKED/completed",
        "HIGH/rejected", "BLOCKED/awaiting_override", "HIGH/rejected",
    ])
    [waiting] = models.pending(NOW.replace(year=2000))
    assert (waiting["level"], waiting["kind"], waiting["findings"][0]["rule_id"]) == ("BLOCKED", "override", "F1")
    assert waiting["seconds_left"] > 0


def test_the_peaks_of_a_sampled_run_are_kept_with_the_cpu_share_over_a_window_between_two_readings() -> None:
    app = _app()
    record_mix(app, 1)
    [row] = _models(app).executions(ExecutionFilter())
    assert (row.peak_memory_bytes, row.peak_pids, row.output_bytes) == (2**21, 3, 10)
    # 0.5 s of CPU in the second between the readings; not 0.2 s in the 0.1 s "since the start"
    # (200 %), which the container spent before the code began.
    assert row.peak_cpu_percent == pytest.approx(50.0)
    assert row.started_at is not None and row.limits is not None


def test_an_ending_that_brings_the_supervisors_cpu_share_keeps_it_as_the_peak() -> None:
    app = _app()
    record_mix(app, 2)
    rows = {row.level: row for row in _models(app).executions(ExecutionFilter())}
    assert rows["MEDIUM"].peak_cpu_percent == pytest.approx(75.0)  # its peaks' cpu_percent, over its 1 s window
    assert rows["LOW"].peak_cpu_percent == pytest.approx(50.0)


def test_executions_are_listed_newest_first_a_page_at_a_time() -> None:
    app = _app()
    record_mix(app, 7)
    models = _models(app)
    everything = models.executions(ExecutionFilter(limit=100))
    assert [row.position for row in everything] == sorted((row.position for row in everything), reverse=True)
    assert models.executions(ExecutionFilter(limit=3, page=2)) == everything[3:6]
    assert {row.submitter for row in models.executions(ExecutionFilter(submitter="mai-1"))} == {"mai-1"}


def test_a_submitter_lists_only_its_own_executions_whatever_its_filter_says() -> None:
    app = _app()
    record_mix(app, 6)
    models = _models(app)
    with acting_as("mai-0", Principal("mai-0", frozenset({Role.SUBMITTER}))):
        rows = models.executions(ExecutionFilter(submitter="mai-2"))
    assert rows and {row.submitter for row in rows} == {"mai-0"}


def test_a_restart_resumes_from_the_tracking_position_without_counting_twice() -> None:
    app = _app()
    views = InMemoryViews()
    record_mix(app, 10)
    ReadModels(app.recorder, app.mapper, views).catch_up()
    record_mix(app, 11, start=10)
    position_before = views.max_tracking_id(LEDGER) or 0
    again = ReadModels(app.recorder, app.mapper, views)  # a new process, the same store
    assert again.catch_up() == again.lag()["head"] - position_before > 0
    rebuilt = InMemoryViews()
    ReadModels(app.recorder, app.mapper, rebuilt).catch_up()
    assert _state(views) == _state(rebuilt)


def test_a_position_already_applied_is_refused_and_changes_nothing() -> None:
    views = InMemoryViews()
    change = ViewChange("x", counts=(Count("2030-01-01", "level", "LOW"),))
    views.apply([change], Tracking(LEDGER, 5))
    with pytest.raises(IntegrityError):
        views.apply([change], Tracking(LEDGER, 5))
    assert views.counts(None, None) == [("2030-01-01", "level", "LOW", 1)]


def test_the_report_figures_equal_the_counts_taken_straight_from_the_events() -> None:
    app = _app()
    record_mix(app, 30)
    report = _models(app).report(LedgerAnchor(head_position=0), None, None, NOW)
    straight = counted_from_events(app)
    assert report.by_level == dict(straight["level"])
    assert report.executions == sum(straight["level"].values())
    assert report.by_outcome == dict(straight["outcome"])
    assert report.terminations_by_reason == dict(straight["termination"])
    assert report.overrides_by_actor == dict(straight["override"])
    assert report.confirmations_by_actor == dict(straight["confirmation"])
    assert report.denials_by_actor == dict(straight["denial"])
    assert {(item.analyzer + "/" + item.rule): item.count for item in report.top_findings} == dict(straight["finding"])
    assert report.pending == 30 // 7 + (1 if 30 % 7 > 5 else 0)


def test_a_period_that_ends_before_it_begins_names_the_field() -> None:
    app = _app()
    with pytest.raises(InvalidQuery) as caught:
        _models(app).report(LedgerAnchor(head_position=0), date(2030, 1, 2), date(2030, 1, 1), NOW)
    assert caught.value.field == "until"


@pytest.mark.parametrize(("query", "field"), [
    (ExecutionFilter(status="sleeping"), "status"),
    (ExecutionFilter(level="SEVERE"), "level"),
    (ExecutionFilter(since="2030-01-02", until="2030-01-01"), "until"),
    (ExecutionFilter(page=0), "page"),
])
def test_an_unknown_filter_value_is_refused_naming_the_filter(query: ExecutionFilter, field: str) -> None:
    with pytest.raises(InvalidQuery) as caught:
        _models(_app()).executions(query)
    assert caught.value.field == field


def test_percentiles_are_nearest_rank_over_the_known_values() -> None:
    result = percentiles([None, *range(1, 101)])
    assert (result.p50, result.p95, result.max) == (50.0, 95.0, 100.0)
    assert percentiles([None]).max is None


def test_a_level_filter_lists_only_that_level() -> None:
    app = _app()
    record_mix(app, 7)
    assert {row.level for row in _models(app).executions(ExecutionFilter(level=RiskLevel.HIGH.value))} == {"HIGH"}
