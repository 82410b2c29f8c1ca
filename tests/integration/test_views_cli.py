"""``mai-safety executions``, ``pending``, ``report`` and ``projections`` through the CLI's main(),
on a real SQLite ledger written by runs through the application with the fake ports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mai_safety.infrastructure.cli.exit_codes import EXIT_BAD_INPUT, EXIT_OK
from mai_safety.infrastructure.cli.local import main

from ..unit.view_scenarios import counted_from_events, record_mix
from .cli_helpers import policies_with
from .ledger_helpers import make_app, service_environ


@pytest.fixture
def ledger(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A ledger of 21 executions of every kind; the CLI's environment points at it."""
    policies = policies_with(tmp_path, gate={"confirm": ["*"], "override": ["*"]})
    url = f"sqlite:///{tmp_path / 'data' / 'ledger.sqlite'}"
    app = make_app(url, tmp_path / "data", policies)
    try:
        record_mix(app, 21)
    finally:
        app.close()
    for name, value in {**service_environ(tmp_path / "data", policies), "MAI_SAFETY_DATABASE_URL": url}.items():
        monkeypatch.setenv(name, value)
    return url


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> object:
    assert main([*args, "--json"]) == EXIT_OK
    return json.loads(capsys.readouterr().out)


def test_executions_lists_newest_first_with_filters_and_pages(ledger: str, capsys: pytest.CaptureFixture[str]) -> None:
    everything = _json(capsys, "executions", "--limit", "100")
    assert isinstance(everything, list) and len(everything) == 21
    assert [row["position"] for row in everything] == sorted((row["position"] for row in everything), reverse=True)
    waiting = _json(capsys, "executions", "--status", "awaiting_override")
    assert {(row["level"], row["status"]) for row in waiting} == {("BLOCKED", "awaiting_override")}  # type: ignore[index]
    assert _json(capsys, "executions", "--limit", "5", "--page", "2") == everything[5:10]
    assert {row["submitter"] for row in _json(capsys, "executions", "--submitter", "mai-2")} == {"mai-2"}  # type: ignore[index]
    assert main(["executions"]) == EXIT_OK
    assert "awaiting_override" in capsys.readouterr().out


def test_pending_shows_what_waits_with_its_findings_and_time_left(ledger: str, capsys: pytest.CaptureFixture[str]) -> None:
    waiting = _json(capsys, "pending")
    assert isinstance(waiting, list) and len(waiting) == 3
    assert all(item["findings"] and item["seconds_left"] > 0 for item in waiting)
    assert main(["pending"]) == EXIT_OK
    assert "needs override" in capsys.readouterr().out


def test_the_report_equals_the_counts_taken_from_the_events_and_is_tied_to_a_verified_ledger(
    ledger: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _json(capsys, "report")
    assert isinstance(report, dict)
    app = make_app(ledger, tmp_path / "data", tmp_path / "policies")
    try:
        straight = counted_from_events(app)
        head = app.recorder.max_notification_id()
    finally:
        app.close()
    assert report["by_level"] == dict(straight["level"]) and report["executions"] == 21
    assert report["by_outcome"] == dict(straight["outcome"])
    assert report["terminations_by_reason"] == dict(straight["termination"])
    assert report["confirmations_by_actor"] == dict(straight["confirmation"])
    assert report["overrides_by_actor"] == dict(straight["override"])
    assert report["denials_by_actor"] == dict(straight["denial"])
    assert report["ledger"]["verified"] is True and report["ledger"]["head_position"] == head
    assert report["ledger"]["checkpoint_position"] is not None
    assert main(["report", "--since", "2000-01-01"]) == EXIT_OK
    assert "audit verify passed" in capsys.readouterr().out


def test_the_html_report_is_written_whole_to_its_file(ledger: str, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    assert main(["report", "--format", "html", "--output", str(page)]) == EXIT_OK
    text = page.read_text()
    assert text.startswith("<!doctype html>") and "passed" in text


def test_rebuild_reads_the_whole_ledger_again_and_leaves_no_lag(ledger: str, capsys: pytest.CaptureFixture[str]) -> None:
    rebuilt = _json(capsys, "projections", "rebuild")
    assert isinstance(rebuilt, dict) and rebuilt["read"] == rebuilt["head"] > 0 and rebuilt["lag"] == 0


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["executions", "--status", "sleeping"], "invalid choice: 'sleeping'"),
        (["executions", "--level", "SEVERE"], "invalid choice: 'SEVERE'"),
        (["executions", "--since", "yesterday"], "--since 'yesterday' is not a time"),
        (["executions", "--since", "2030-01-02", "--until", "2030-01-01"], "ends"),
        (["executions", "--page", "0"], "count from 1"),
        (["report", "--since", "2030-01-02", "--until", "2030-01-01"], "before it begins"),
        (["report", "--until", "2030-02-30"], "is not a time"),
        (["report", "--output", "report.txt"], "add --format html"),
    ],
)
def test_bad_input_is_one_line_and_the_bad_input_status(
    ledger: str, args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _status_of(args) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def _status_of(args: list[str]) -> int | str | None:
    """main()'s status; argparse refuses a choice by exiting itself, with the same status."""
    try:
        return main(args)
    except SystemExit as exited:
        return exited.code
