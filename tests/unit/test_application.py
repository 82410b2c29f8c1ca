"""The application's gate and recording, with fake ports and an in-memory chained ledger."""

from __future__ import annotations

import uuid

import pytest

from mai_safety.application.errors import SandboxUnavailable
from mai_safety.application.service import GatePolicy, MaiSafety, acting_as
from mai_safety.domain.errors import InvalidSubmission, LimitOutOfPolicy
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.domain.limits import RequestedLimits, ResourceLimits, TrustRule

from .fakes import FakeAssessor, FakeSandbox

PROFILE = ResourceLimits(cpus=1, memory_bytes=2**29, pids=128, timeout_s=60, output_bytes=2**22, tmpfs_bytes=2**27)
GATE = GatePolicy(
    profiles={trust: PROFILE for trust in TrustLevel},
    trust_rules=(TrustRule(Provenance.MAI, RiskLevel.MEDIUM, TrustLevel.STANDARD),),
    max_code_bytes=1024,
)


def _app(level: RiskLevel = RiskLevel.LOW, sandbox: FakeSandbox | None = None) -> tuple[MaiSafety, FakeSandbox]:
    sandbox = sandbox or FakeSandbox()
    env = {
        "PERSISTENCE_MODULE": "mai_safety.infrastructure.ledger.sqlite",
        "SQLITE_DBNAME": f"file:{uuid.uuid4().hex}?mode=memory&cache=shared",
    }
    return MaiSafety(assessor=FakeAssessor(level), sandbox=sandbox, gate=GATE, env=env), sandbox


def _ledger_size(app: MaiSafety) -> int:
    return app.verify().checked


def test_low_code_is_assessed_started_and_completed_in_that_order() -> None:
    app, sandbox = _app()
    report = app.run(b"print('hello')\n")
    assert report.status == "completed"
    assert [event["event"] for event in app.history(report.execution_id)] == ["Assessed", "Started", "Completed"]
    assert sandbox.discarded == ["fake-1"]
    assert app.verify().intact


@pytest.mark.parametrize(("level", "kind"), [(RiskLevel.HIGH, "confirmation"), (RiskLevel.BLOCKED, "override")])
def test_high_and_blocked_code_waits_without_touching_the_sandbox(level: RiskLevel, kind: str) -> None:
    app, sandbox = _app(level)
    report = app.run(b"import os\n")
    assert report.status == "awaiting_override"
    assert report.override_kind == kind
    assert sandbox.prepared == []
    history = app.history(report.execution_id)
    assert [event["event"] for event in history] == ["Assessed", "OverrideRequested"]
    assert history[1]["kind"] == kind


def test_a_limit_above_the_policy_is_refused_before_anything_is_recorded() -> None:
    app, sandbox = _app()
    with pytest.raises(LimitOutOfPolicy):
        app.run(b"print(1)\n", requested=RequestedLimits(memory_bytes=2**31))
    assert _ledger_size(app) == 0
    assert sandbox.prepared == []


def test_bad_code_is_refused_before_anything_is_recorded() -> None:
    app, _ = _app()
    with pytest.raises(InvalidSubmission):
        app.run(b"print(1)\x00")
    assert _ledger_size(app) == 0


def test_no_sandbox_means_nothing_is_recorded() -> None:
    app, _ = _app(sandbox=FakeSandbox(available=False))
    with pytest.raises(SandboxUnavailable):
        app.run(b"print(1)\n")
    assert _ledger_size(app) == 0


def test_events_carry_the_actor_given_by_the_caller() -> None:
    app, _ = _app()
    with acting_as("mai-assistant"):
        report = app.run(b"print(1)\n")
    assert {event["actor"] for event in app.history(report.execution_id)} == {"mai-assistant"}


def test_the_assessed_event_holds_the_code_and_its_hash() -> None:
    app, _ = _app()
    report = app.run(b"print(1)\n")
    assessed = app.history(report.execution_id)[0]
    assert assessed["code"] == "print(1)\n"
    assert assessed["code_sha256"] == report.code_sha256
