"""Forensic replay: one execution's life rebuilt from its verified events, as of any moment."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from pathlib import Path

import pytest

from mai_safety.application.errors import ExecutionNotFound
from mai_safety.application.access import acting_as
from mai_safety.domain.levels import RiskLevel

from ..unit.fakes import FakeAssessor
from .cli_helpers import run_cli
from .ledger_helpers import make_app, record_execution, service_environ


def test_replay_shows_the_code_findings_who_confirmed_and_why_the_limits_and_the_end(
    database_url: str, tmp_path: Path
) -> None:
    app = make_app(database_url, tmp_path / "data")
    app.assessor = FakeAssessor(RiskLevel.HIGH)
    try:
        with acting_as("mai"):
            waiting = app.run(b"import os\nprint(os.getpid())\n")
        with acting_as("alice@laptop"):
            app.approve(waiting.execution_id, "I wrote this; it only prints its pid")
        app.audit.flush()  # sealed within the policy's bound; now rather than a moment later
        replay = app.audit.replay(waiting.execution_id)
    finally:
        app.close()

    assert replay.intact and replay.status == "completed"
    assert replay.code == "import os\nprint(os.getpid())\n"
    assert replay.code_sha256 == hashlib.sha256(replay.code.encode()).hexdigest() and replay.code_sha256_matches
    assert [finding["rule_id"] for finding in replay.findings] == ["F1"]
    requested, answered = replay.decisions
    assert (requested["event"], requested["actor"], requested["kind"]) == ("OverrideRequested", "mai", "confirmation")
    assert (answered["event"], answered["actor"]) == ("Overridden", "alice@laptop")
    assert answered["explanation"] == "I wrote this; it only prints its pid"
    assert replay.run is not None and replay.run["limits"]["cpus"] > 0 and replay.run["trust"]
    assert replay.ending is not None and replay.ending["event"] == "Completed"
    assert replay.ending["outcome"]["exit_code"] == 0
    assert replay.covered_by is not None and replay.covered_by["position"] >= replay.timeline[-1]["position"]
    assert all(entry["verified"] for entry in replay.timeline)


def test_replay_as_of_a_past_moment_shows_the_state_then(database_url: str, tmp_path: Path) -> None:
    app = make_app(database_url, tmp_path / "data")
    try:
        execution = record_execution(app, samples=2)
        started_at = datetime.fromisoformat(app.history(execution)[1]["timestamp"])
        then = app.audit.replay(execution, as_of=started_at)
        now = app.audit.replay(execution)
        with pytest.raises(ExecutionNotFound, match="nothing was recorded"):
            app.audit.replay(execution, as_of=datetime.fromisoformat("2000-01-01T00:00:00+00:00"))
    finally:
        app.close()

    assert then.status == "running" and [entry["event"] for entry in then.timeline] == ["Assessed", "Started"]
    assert then.samples == [] and then.ending is None
    assert now.status == "completed" and len(now.samples) == 2 and now.samples[1]["memory_bytes"] == 1001


def test_replay_from_the_command_line_prints_the_timeline_and_json(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    app = make_app(url, tmp_path / "data")
    try:
        execution = record_execution(app, "print('replayed')\n")
    finally:
        app.close()
    environ = {"MAI_SAFETY_DATABASE_URL": url, **service_environ(tmp_path / "data")}

    text = run_cli(["audit", "replay", execution], environ)
    assert text.returncode == 0, text.stderr
    assert "verified: its chain is intact; sealed by checkpoint #" in text.stdout
    assert "Assessed" in text.stdout and "Completed" in text.stdout and "print('replayed')" in text.stdout
    as_json = run_cli(["audit", "replay", execution, "--json"], environ)
    assert json.loads(as_json.stdout)["status"] == "completed"
    unknown = run_cli(["audit", "replay", "00000000-0000-4000-8000-000000000000"], environ)
    assert unknown.returncode == 2 and "no execution" in unknown.stderr
