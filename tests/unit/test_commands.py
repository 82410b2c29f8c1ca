"""The answers to a waiting execution (approve, deny), cancel, the sweep, recovery and the
supervision of a run, with fake ports: the fake sandbox hands the observer its samples as the real
one does, and the clock is the test's."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone
from uuid import UUID

import pytest

from mai_safety.application.errors import ExecutionNotFound
from mai_safety.application.executions import MaiSafety
from mai_safety.application.ports import PreparedRun
from mai_safety.application.sizing import ExecutionPolicy
from mai_safety.domain.assessment import Submission
from mai_safety.domain.errors import InvalidTransition
from mai_safety.domain.execution import Execution
from mai_safety.domain.gate import AnswerTooLate
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.domain.limits import ResourceLimits, TrustRule
from mai_safety.domain.supervision import Usage

from .fakes import FakeAssessor, FakeSandbox

PROFILE = ResourceLimits(cpus=1, memory_bytes=2**29, pids=128, timeout_s=60, output_bytes=2**22, tmpfs_bytes=2**27)
POLICY = ExecutionPolicy(
    profiles={trust: PROFILE for trust in TrustLevel},
    trust_rules=(TrustRule(Provenance.MAI, RiskLevel.MEDIUM, TrustLevel.STANDARD),),
    max_code_bytes=1024,
    sample_every_s=1.0,
)


class Clock:
    """The test's clock: it moves only when told."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now


def _app(level: RiskLevel = RiskLevel.LOW, sandbox: FakeSandbox | None = None, clock: Clock | None = None) -> MaiSafety:
    env = {
        "PERSISTENCE_MODULE": "mai_safety.ledger.infrastructure.sqlite",
        "SQLITE_DBNAME": f"file:{uuid.uuid4().hex}?mode=memory&cache=shared",
    }
    return MaiSafety(
        assessor=FakeAssessor(level), sandbox=sandbox or FakeSandbox(), policy=POLICY, env=env, clock=clock or Clock()
    )


def _events(app: MaiSafety, execution_id: str) -> list[str]:
    return [event["event"] for event in app.history(execution_id)]


def _usage(elapsed_s: float, memory_bytes: int = 2**20) -> Usage:
    return Usage(elapsed_s, 0.01, memory_bytes, memory_bytes, 1, 0, False, 0)


def test_an_approved_high_execution_runs_once_its_confirmation_is_recorded() -> None:
    sandbox = FakeSandbox()
    app = _app(RiskLevel.HIGH, sandbox)
    waiting = app.run(b"import os\n")
    assert waiting.status == "awaiting_override" and sandbox.prepared == []

    report = app.approve(waiting.execution_id, "looked at it")

    assert report.status == "completed" and report.stdout == "hello\n"
    assert _events(app, waiting.execution_id) == ["Assessed", "OverrideRequested", "Overridden", "Started", "Completed"]
    assert [prepared[0] for prepared in sandbox.prepared] == [waiting.execution_id]


def test_an_answer_after_its_deadline_ends_the_execution_unrun() -> None:
    clock, sandbox = Clock(), FakeSandbox()
    app = _app(RiskLevel.HIGH, sandbox, clock)
    waiting = app.run(b"import os\n")
    clock.now += POLICY.rules.answer_within + timedelta(seconds=1)

    with pytest.raises(AnswerTooLate):
        app.approve(waiting.execution_id)

    report = app.report(waiting.execution_id)
    assert report.status == "rejected" and report.termination_reason == "no_answer"
    assert sandbox.prepared == []


def test_a_denied_execution_ends_without_touching_the_sandbox() -> None:
    sandbox = FakeSandbox()
    app = _app(RiskLevel.HIGH, sandbox)
    waiting = app.run(b"import os\n")

    report = app.deny(waiting.execution_id, "not today")

    assert report.status == "rejected" and report.termination_reason == "denied"
    assert sandbox.prepared == []
    with pytest.raises(InvalidTransition):
        app.approve(waiting.execution_id)


def test_a_cancelled_waiting_execution_ends_as_cancelled_and_its_container_is_removed() -> None:
    sandbox = FakeSandbox()
    app = _app(RiskLevel.HIGH, sandbox)
    waiting = app.run(b"import os\n")

    report = app.cancel(waiting.execution_id)

    assert report.status == "rejected" and report.termination_reason == "cancelled"
    assert sandbox.removed == [waiting.execution_id]
    with pytest.raises(InvalidTransition):
        app.cancel(waiting.execution_id)


def test_a_run_cancelled_while_it_runs_is_recorded_ended_once_as_cancelled() -> None:
    sandbox = FakeSandbox(samples=(_usage(0.0), _usage(1.5), _usage(3.0)))
    app = _app(sandbox=sandbox)

    def cancel_from_another_writer(prepared: PreparedRun) -> None:
        app.cancel(sandbox.prepared[-1][0])

    sandbox.during_run = cancel_from_another_writer
    report = app.run(b"print(1)\n")

    assert report.status == "terminated" and report.termination_reason == "cancelled"
    events = _events(app, report.execution_id)
    assert events[:2] == ["Assessed", "Started"] and events.count("Terminated") == 1
    assert "Completed" not in events


def test_a_run_answers_with_what_its_end_recorded_without_reading_it_again() -> None:
    """The answer to a run is built from the execution its end was recorded on (issue #29): it is
    what the ledger says, whether the run completed, or another writer ended it first, or it ran
    once confirmed; and a caller that may not see the execution is not shown it either way."""
    sandbox = FakeSandbox(samples=(_usage(0.0), _usage(1.5), _usage(3.0)))
    app = _app(sandbox=sandbox)
    completed = app.run(b"print(1)\n")
    assert completed.status == "completed" and completed == app.report(completed.execution_id)

    sandbox.during_run = lambda prepared: app.cancel(sandbox.prepared[-1][0])
    cancelled = app.run(b"print(2)\n")
    assert cancelled.termination_reason == "cancelled" and cancelled == app.report(cancelled.execution_id)

    high = _app(RiskLevel.HIGH, FakeSandbox())
    waiting = high.run(b"import os\n")
    confirmed = high.approve(waiting.execution_id, "looked at it")
    assert confirmed.status == "completed" and confirmed == high.report(waiting.execution_id)

    loads = []
    store = app.queries.store
    original = store.get
    store.get = lambda execution_id: loads.append(execution_id) or original(execution_id)  # type: ignore[method-assign]
    sandbox.during_run = None
    app.run(b"print(3)\n")
    assert loads == []  # not read again


def test_the_supervisor_records_samples_thinned_to_one_a_second() -> None:
    sandbox = FakeSandbox(samples=(_usage(0.0), _usage(0.4), _usage(0.8), _usage(1.2)))
    app = _app(sandbox=sandbox)

    report = app.run(b"print(1)\n")

    assert report.status == "completed"
    assert sandbox.observed == [True, True, True, True]
    samples = [event["sample"] for event in app.history(report.execution_id) if event["event"] == "ResourceSampled"]
    assert [sample["elapsed_s"] for sample in samples] == [0.0, 1.2]


def test_the_supervisor_records_a_sample_near_a_limit_at_once() -> None:
    near = int(PROFILE.memory_bytes * 0.9)
    sandbox = FakeSandbox(samples=(_usage(0.0), _usage(0.2, memory_bytes=near)))
    app = _app(sandbox=sandbox)

    report = app.run(b"print(1)\n")

    samples = [event["sample"] for event in app.history(report.execution_id) if event["event"] == "ResourceSampled"]
    assert [sample["memory_bytes"] for sample in samples] == [2**20, near]


def test_the_sweep_ends_the_executions_whose_answer_did_not_come_in_time() -> None:
    clock = Clock()
    app = _app(RiskLevel.HIGH, clock=clock)
    late = app.run(b"import os\n")
    clock.now += POLICY.rules.answer_within / 2
    in_time = app.run(b"import sys\n")
    clock.now += POLICY.rules.answer_within / 2 + timedelta(seconds=1)

    assert app.expire_overdue() == [late.execution_id]
    assert app.report(late.execution_id).termination_reason == "no_answer"
    assert app.report(in_time.execution_id).status == "awaiting_override"
    assert app.awaiting_ids() == [UUID(in_time.execution_id)]


def _running_when_its_supervisor_died(app: MaiSafety, sandbox: FakeSandbox) -> str:
    """A run whose process died mid-run: Started is recorded and nothing after it."""

    def die(prepared: PreparedRun) -> None:
        raise SystemExit("the supervisor's process died")

    sandbox.during_run = die
    with pytest.raises(SystemExit):
        app.run(b"print(1)\n")
    sandbox.during_run = None
    return sandbox.prepared[-1][0]


def test_recovery_ends_a_run_whose_supervisor_is_gone_and_removes_its_container() -> None:
    sandbox = FakeSandbox()
    app = _app(sandbox=sandbox)
    lost = _running_when_its_supervisor_died(app, sandbox)
    assert app.running_ids() == [UUID(lost)]
    sandbox.supervisor = "the next process"

    assert app.recover() == [lost]

    report = app.report(lost)
    assert report.status == "terminated" and report.termination_reason == "supervisor_lost"
    assert sandbox.removed == [lost] and app.running_ids() == []
    assert app.recover() == []


def test_recovery_leaves_a_run_whose_supervisor_still_lives() -> None:
    sandbox = FakeSandbox()
    app = _app(sandbox=sandbox)
    running = _running_when_its_supervisor_died(app, sandbox)  # as far as the ledger knows, still running

    assert app.recover() == []
    assert app.report(running).status == "running" and sandbox.removed == []


def assessed_as_an_older_main_left_it(app: MaiSafety, execution_id: UUID | None = None) -> str:
    """What a process of an older main left when it died between its first write (Assessed, then
    written on its own, before the sandbox was made) and the start: a ledger is forever, so
    recovery still ends it. This main records Assessed with Started, or with the refusal."""
    submission = Submission.from_bytes(b"print(1)\n", Provenance.MAI, 10_000)
    execution = Execution.assess(submission, FakeAssessor(RiskLevel.LOW).assess(submission), execution_id=execution_id)
    app.save(execution)
    assert app.report(str(execution.id)).status == "assessed"
    return str(execution.id)


def test_a_supervisor_that_dies_after_making_the_container_leaves_nothing_recorded() -> None:
    class DiesAfterCreating(FakeSandbox):
        def prepare(self, execution_id: str, *args: object, **kwargs: object) -> PreparedRun:
            self.orphans.append(execution_id)  # the container exists; nothing is recorded yet
            raise SystemExit("the supervisor's process died")

    sandbox = DiesAfterCreating()
    app = _app(sandbox=sandbox)
    assessed_as_an_older_main_left_it(app)  # a ledger that has begun (its very first decision is recorded first)
    with pytest.raises(SystemExit):
        app.run(b"print(1)\n")
    (orphan,) = sandbox.orphans
    with pytest.raises(ExecutionNotFound):
        app.report(orphan)
    assert app.recover() == []  # nothing to end; the dead supervisor's container is a leftover, removed as such


def test_recovery_ends_an_execution_whose_container_outlived_a_supervisor_that_never_recorded_started() -> None:
    sandbox = FakeSandbox()
    app = _app(sandbox=sandbox)
    orphan = assessed_as_an_older_main_left_it(app)
    sandbox.orphans.append(orphan)  # the container exists; Started is never recorded
    sandbox.supervisor = "the next process"
    assert app.running_ids() == []  # not in the index: only the container says so

    assert app.recover() == [orphan]
    assert app.report(orphan).termination_reason == "supervisor_lost"
