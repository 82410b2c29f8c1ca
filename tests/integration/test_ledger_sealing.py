"""Endings sealed a moment after they are recorded (policies/ledger.yaml ``endings_within_seconds``):
one checkpoint for the endings of an interval, always before the service stops, and at the next
start for a service that stopped without sealing. Decision 0009."""

from __future__ import annotations

import shutil
import time
from dataclasses import replace
from pathlib import Path
from uuid import UUID

import pytest

from mai_safety.application.executions import MaiSafety

from mai_safety.infrastructure.settings import PROJECT_ROOT
from mai_safety.ledger import ledger_parts
from ..unit.fakes import ManualTimers
from .ledger_helpers import make_app, record_execution


def _policies(tmp_path: Path, endings_within: str) -> Path:
    """The shipped policies, with endings sealed within ``endings_within`` seconds."""
    folder = tmp_path / "policies"
    shutil.copytree(PROJECT_ROOT / "policies", folder)
    ledger = folder / "ledger.yaml"
    text = ledger.read_text()
    assert "endings_within_seconds: 0.2" in text
    ledger.write_text(text.replace("endings_within_seconds: 0.2", f"endings_within_seconds: {endings_within}"))
    return folder


def _covering(app: MaiSafety, position: int) -> int | None:
    head = app.audit.ledger().head()
    return head.checkpoint.sequence if head.checkpoint and head.checkpoint.position >= position else None


def test_an_ending_awaits_its_checkpoint_and_is_sealed_before_the_service_stops(database_url: str, tmp_path: Path) -> None:
    policies = _policies(tmp_path, "30")  # long enough that no timer fires during the test
    app = make_app(database_url, tmp_path / "data", policies)
    try:
        first = record_execution(app, "print(1)\n")
        second = record_execution(app, "print(2)\n")
        ending = app.audit.ledger().select_execution(second)[-1].position
        assert _covering(app, ending) is None
        report = app.audit.verify()
        assert report.intact and report.awaiting_seal == ending  # awaiting, not a problem
        replay = app.audit.replay(first)
        assert replay.intact and replay.covered_by is None
    finally:
        app.close()  # seals what is owed

    app = make_app(database_url, tmp_path / "data", policies)
    try:
        ledger = app.audit.ledger()
        newest = ledger.head().checkpoint
        assert newest is not None and newest.position == ending and newest.reason == "execution ended"
        # One signature for both endings: the one before covers neither.
        assert ledger.checkpoint_before(ending) is None or ledger.checkpoint_before(ending).position < ending - 3
        report = app.audit.verify()
        assert report.intact and report.awaiting_seal is None
    finally:
        app.close()


def test_the_shipped_policy_seals_an_ending_within_its_bound(database_url: str, tmp_path: Path) -> None:
    app = make_app(database_url, tmp_path / "data")
    try:
        execution = record_execution(app, "print(1)\n")
        ending = app.audit.ledger().select_execution(execution)[-1].position
        # No timing is asserted: the seal comes from the timer thread, so wait for it generously.
        polls = 600
        while _covering(app, ending) is None and polls:
            polls -= 1
            time.sleep(0.05)
        assert _covering(app, ending) is not None, "the deferred seal never came"
    finally:
        app.close()


def test_an_ending_a_stopped_service_left_unsealed_is_sealed_at_the_next_start(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    policies = _policies(tmp_path, "30")
    crashed = make_app(database_url, tmp_path / "data", policies)
    execution = record_execution(crashed, "print(1)\n", end=False)
    # The ending is written, and the process dies before the sealer hears of it once committed
    # (ledger/infrastructure/appending.py): the close that follows finds nothing owed.
    seals = ledger_parts(crashed.factory).seals  # type: ignore[union-attr]
    monkeypatch.setattr(seals.sealer, "appended", lambda position, topics: None)  # type: ignore[union-attr]
    ended = crashed.repository.get(UUID(execution))
    ended.complete({"exit_code": 0, "stdout": "1\n", "stderr": "", "duration_s": 0.01})
    crashed.save(ended)
    crashed.close()

    app = make_app(database_url, tmp_path / "data", policies)
    try:
        ledger = app.audit.ledger()
        ending = ledger.select_execution(execution)[-1].position
        # Long after the end (as the verifier's clock sees it), an unsealed ending is a problem ...
        rule = app.audit.policy.rule
        app.audit.policy = replace(app.audit.policy, rule=replace(rule, endings_within=0.001, seal_margin=0.0))
        report = app.audit.verify()
        assert not report.intact and report.details[0]["kind"] == "not_covered"
        assert "stopped before sealing it" in report.problems[0]
        # ... which the next start mends, once what follows the newest checkpoint verifies.
        app.recover()
        newest = ledger.head().checkpoint
        assert newest is not None and newest.position == ending and "next start" in newest.reason
        assert app.audit.verify().intact
    finally:
        app.close()


def test_a_due_seal_rides_on_the_next_append(database_url: str, tmp_path: Path) -> None:
    timers = ManualTimers()
    app = make_app(database_url, tmp_path / "data", _policies(tmp_path, "30"), sealing_timer=timers)
    try:
        ledger = app.audit.ledger()
        ended = record_execution(app, "print(1)\n")
        ending = ledger.select_execution(ended)[-1].position
        before = ledger.head().checkpoint
        timers.fire_next()  # halfway through the interval: the seal falls due
        running = record_execution(app, "print(2)\n", end=False)  # Assessed and Started
        assessed = ledger.select_execution(running)[0].position
        newest = ledger.head().checkpoint
        # The seal came with the next append, in its transaction: it signs that append's head.
        assert newest is not None and newest.sequence == (before.sequence if before else 0) + 1
        assert newest.position == assessed == ending + 1 and newest.reason == "execution ended"
        app.audit.flush()  # nothing more is owed: no second checkpoint
        assert ledger.head().checkpoint == newest
    finally:
        app.close()
