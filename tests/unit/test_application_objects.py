"""The application's objects with one job (docs/decisions/0038), each with fakes: the unit of work
that retries a concurrent write, and what the commands answer when every attempt conflicts."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import IntegrityError

from mai_safety.application.errors import WriteContended
from mai_safety.application.executions import MaiSafety
from mai_safety.application.retry import ATTEMPTS, retry_concurrent_writes
from mai_safety.application.run_command import RunCommand
from mai_safety.application.sizing import ExecutionPolicy
from mai_safety.application.watch import ExecutionWatch
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.domain.limits import ResourceLimits, TrustRule
from mai_safety.infrastructure.cli.exit_codes import EXIT_BUSY, exit_code_for

from .fakes import FakeAssessor, FakeSandbox

PROFILE = ResourceLimits(cpus=1, memory_bytes=2**29, pids=128, timeout_s=60, output_bytes=2**22, tmpfs_bytes=2**27)
GATE = ExecutionPolicy(
    profiles={trust: PROFILE for trust in TrustLevel},
    trust_rules=(TrustRule(Provenance.MAI, RiskLevel.MEDIUM, TrustLevel.STANDARD),),
    max_code_bytes=1024,
)


def _app(level: RiskLevel = RiskLevel.HIGH) -> tuple[MaiSafety, FakeSandbox]:
    sandbox = FakeSandbox()
    env = {
        "PERSISTENCE_MODULE": "mai_safety.ledger.infrastructure.sqlite",
        "SQLITE_DBNAME": f"file:{uuid.uuid4().hex}?mode=memory&cache=shared",
    }
    return MaiSafety(assessor=FakeAssessor(level), sandbox=sandbox, policy=GATE, env=env), sandbox


class AlwaysAnotherWriter:
    """Stands for a writer that saves the same execution just before each of ours: every save of
    an execution conflicts, as eventsourcing's IntegrityError says (anything else is saved)."""

    def __init__(self, app: MaiSafety) -> None:
        self.attempts = 0
        self._save = app.save
        app.save = self.save  # type: ignore[method-assign]

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        self.attempts += 1
        raise IntegrityError("version taken: another writer saved this execution first")


def test_the_unit_of_work_reads_again_after_a_conflict_and_keeps_the_answer_of_the_attempt_that_saved() -> None:
    tries: list[int] = []

    def attempt() -> str:
        tries.append(1)
        if len(tries) < 3:
            raise IntegrityError("taken")
        return "saved"

    assert retry_concurrent_writes(attempt, "the test's write") == "saved"
    assert len(tries) == 3


def test_the_unit_of_work_says_so_when_every_attempt_met_another_writer() -> None:
    tries: list[int] = []

    def attempt() -> None:
        tries.append(1)
        raise IntegrityError("taken")

    with pytest.raises(WriteContended, match="the test's write was not recorded") as told:
        retry_concurrent_writes(attempt, "the test's write")
    assert len(tries) == ATTEMPTS
    assert exit_code_for(told.value) == EXIT_BUSY  # the command line: try again


def test_a_cancel_whose_every_attempt_conflicts_is_refused_and_kills_nothing() -> None:
    app, sandbox = _app()
    waiting = app.run(b"print(1)\n")
    assert waiting.status == "awaiting_override"
    writer = AlwaysAnotherWriter(app)
    with pytest.raises(WriteContended, match=f"the cancellation of execution {waiting.execution_id} was not recorded"):
        app.cancel(waiting.execution_id)
    assert writer.attempts == ATTEMPTS
    assert sandbox.removed == []  # nothing recorded, so nothing killed
    assert app.report(waiting.execution_id).status == "awaiting_override"


def test_a_stopping_service_whose_end_of_a_run_always_conflicts_is_told_and_leaves_the_container_to_recovery() -> None:
    app, sandbox = _app()
    waiting = app.run(b"print(1)\n")
    AlwaysAnotherWriter(app)
    with pytest.raises(WriteContended):
        app.end_unfinished(waiting.execution_id, "service_stopped", "the service stopped")
    assert sandbox.removed == []
    assert app.report(waiting.execution_id).status == "awaiting_override"


def test_a_cancel_that_meets_another_writer_once_reads_again_and_is_recorded() -> None:
    app, sandbox = _app()
    waiting = app.run(b"print(1)\n")
    save = app.save
    conflicts = [IntegrityError("taken")]

    def once(*objs: Any, **kwargs: Any) -> Any:
        if conflicts:
            raise conflicts.pop()
        return save(*objs, **kwargs)

    app.save = once  # type: ignore[method-assign]
    assert app.cancel(waiting.execution_id).status == "rejected"
    assert sandbox.removed == [waiting.execution_id]


def test_run_takes_one_request_value_and_the_facade_hands_it_on() -> None:
    app, _ = _app(RiskLevel.LOW)
    told: list[RunCommand] = []
    real = app.commands.run

    def run(command: RunCommand) -> Any:
        told.append(command)
        return real(command)

    app.commands.run = run  # type: ignore[method-assign]
    report = app.run(b"print(1)\n", source="t.py", caller={"task_id": "t1"})
    assert report.status == "completed"
    assert told == [RunCommand(b"print(1)\n", source="t.py", caller={"task_id": "t1"})]
    with pytest.raises(TypeError):
        app.run(b"print(1)\n", colour="blue")  # an unknown option is refused, as a keyword was


def test_a_watch_reads_through_what_it_is_given_not_through_the_application() -> None:
    reads: list[dict[str, Any]] = []

    def events(aggregate_id: UUID, **selection: Any) -> list[Any]:
        reads.append({"id": aggregate_id, **selection})
        return []

    execution_id = uuid.uuid4()
    watch = ExecutionWatch(
        execution_id, None, events=events, report=lambda _: None, token_active=lambda _: False, status=lambda: "running"  # type: ignore[arg-type, return-value]
    )
    assert watch.recorded_after(3) == []
    assert reads == [{"id": execution_id, "gt": 3, "limit": 200}]
    assert watch.token_active()  # outside the service, no token to lose
    assert watch.status() == "running"


def test_the_sweep_that_meets_an_answer_reads_again_and_leaves_the_answered_execution_as_answered() -> None:
    from .test_commands import POLICY, Clock, _app as _timed_app

    clock = Clock()
    app = _timed_app(RiskLevel.HIGH, clock=clock)
    waiting = app.run(b"print(1)\n")
    clock.now += POLICY.rules.answer_within + timedelta(seconds=1)
    save = app.save
    answered: list[str] = []

    def answer_first(*objs: Any, **kwargs: Any) -> Any:
        if not answered:  # the deny lands between the sweep's read and its save
            answered.append("denied")
            app.save = save  # type: ignore[method-assign]
            denied = app.upkeep.store.get(waiting.execution_id)
            denied.deny("no", POLICY.rules, "alice")
            save(denied)
            raise IntegrityError("version taken: the deny was saved first")
        return save(*objs, **kwargs)

    app.save = answer_first  # type: ignore[method-assign]
    assert app.expire_overdue() == []  # read again: no longer waiting, so not expired
    assert app.report(waiting.execution_id).termination_reason == "denied"


class FakeRepository:
    """The repository a store reads: aggregates by id, their events (none here)."""

    def __init__(self, *aggregates: Any) -> None:
        self.aggregates = {aggregate.id: aggregate for aggregate in aggregates}
        self.event_store = self

    def get(self, aggregate_id: UUID, **selection: Any) -> Any:
        if selection:
            return []
        try:
            return self.aggregates[aggregate_id]
        except KeyError:
            from eventsourcing.application import AggregateNotFoundError

            raise AggregateNotFoundError(aggregate_id) from None


def _execution_of(principal: str) -> Any:
    from mai_safety.domain.assessment import Submission
    from mai_safety.domain.execution import Execution

    submission = Submission.from_bytes(b"print(1)\n", Provenance.MAI, 1024, "the code")
    return Execution.assess(submission, FakeAssessor().assess(submission), caller={"principal": principal})


def test_the_store_tells_a_principal_that_may_not_see_an_execution_that_it_does_not_exist() -> None:
    from mai_safety.application.access import acting_as
    from mai_safety.application.errors import ExecutionNotFound
    from mai_safety.application.store import ExecutionStore
    from mai_safety.domain.access import Principal, Role

    alices = _execution_of("alice")
    store = ExecutionStore(FakeRepository(alices), save=lambda *objs: None)
    with acting_as("bob", Principal("bob", frozenset({Role.SUBMITTER}))):
        with pytest.raises(ExecutionNotFound, match="no execution"):
            store.get_visible(str(alices.id))
    with acting_as("alice", Principal("alice", frozenset({Role.SUBMITTER}))):
        assert store.get_visible(str(alices.id)) is alices
    with pytest.raises(ExecutionNotFound, match="is not an execution id"):
        store.get("not-a-uuid")
    with pytest.raises(ExecutionNotFound, match="no execution"):
        store.get(uuid.uuid4())
