"""An execution's answer carries its times, its usage's peaks and what the code attempted, so a
caller (Mai) need not read its events (issue #30)."""

from __future__ import annotations

from datetime import datetime

from mai_safety.application.ports import RunOutcome
from mai_safety.domain.levels import RiskLevel

from .test_application import _app
from .fakes import FakeSandbox

RECORD = {
    "self_reported": True,
    "complete": True,
    "events": {"open": {"count": 3, "first": ["/etc/passwd"]}, "socket": {"count": 1, "first": ["AF_INET"]}},
    "channel": "unix socket /sandbox/record.sock",
}
PEAKS = {"cpu_seconds": 0.42, "cpu_percent": 37.5, "memory_peak_bytes": 12_345_678, "pids": 3}


def test_a_finished_execution_answers_when_it_was_submitted_started_and_ended() -> None:
    outcome = RunOutcome(0, "hello\n", "", 6, False, 0.2, peaks=PEAKS, observations={"attempted": RECORD})
    app, _ = _app(sandbox=FakeSandbox(outcome))
    report = app.run(b"print('hello')\n")
    submitted, started, ended = (datetime.fromisoformat(moment) for moment in (report.submitted_at, report.started_at, report.ended_at))
    assert submitted <= started <= ended
    events = {event["event"]: event["timestamp"] for event in app.history(report.execution_id)}
    assert report.started_at == events["Started"] and report.ended_at == events["Completed"]


def test_a_finished_execution_answers_its_usage_peaks_and_what_the_code_attempted() -> None:
    outcome = RunOutcome(0, "hello\n", "", 6, False, 0.2, peaks=PEAKS, observations={"attempted": RECORD})
    app, _ = _app(sandbox=FakeSandbox(outcome))
    report = app.run(b"print('hello')\n").to_dict()
    assert report["usage"] == PEAKS
    assert report["attempted"] == {
        "self_reported": True, "complete": True, "counts": {"open": 3, "socket": 1},
        "first": {"open": ["/etc/passwd"], "socket": ["AF_INET"]},
    }


def test_code_waiting_for_a_person_has_been_submitted_but_not_started_or_ended() -> None:
    app, _ = _app(level=RiskLevel.HIGH)
    report = app.run(b"print('hello')\n")
    assert report.status == "awaiting_override"
    assert report.submitted_at is not None and report.started_at is None and report.ended_at is None
    assert report.usage == {} and report.attempted == {}
