"""Every execution ends (issue #24): one recorded and never started, or running, whose holder is
gone is ended by recovery or the sweep, with a reason that says what happened; one whose holder
lives is left alone; a caller told of a failure after Assessed learns which execution it was."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest

from mai_safety.application.abandoned import InFlight, Leases, Liveness
from mai_safety.application.errors import ExecutionLeftOpen, ExecutionNotFound, LedgerUnavailable
from mai_safety.application.executions import MaiSafety
from mai_safety.application.ports import PreparedRun
from mai_safety.domain.execution import Execution
from mai_safety.domain.levels import RiskLevel

from .fakes import FakeAssessor, FakeSandbox
from .test_commands import POLICY, Clock, assessed_as_an_older_main_left_it


class PeerSandbox(FakeSandbox):
    """A sandbox on a host of its own: it judges no other supervisor gone by its process."""

    def is_orphaned(self, supervisor_id: str) -> bool:
        return False


def _ledger() -> dict[str, str]:
    return {
        "PERSISTENCE_MODULE": "mai_safety.ledger.infrastructure.sqlite",
        "SQLITE_DBNAME": f"file:{uuid.uuid4().hex}?mode=memory&cache=shared",
    }


def _app(sandbox: FakeSandbox, env: dict[str, str] | None = None) -> MaiSafety:
    app = MaiSafety(assessor=FakeAssessor(RiskLevel.LOW), sandbox=sandbox, policy=POLICY, env=env or _ledger(), clock=Clock())
    app.outcome_retry_s = 0.01
    return app


class DiesBeforeStarting(FakeSandbox):
    """The process dies while the sandbox is made, before anything of the run is recorded."""

    def prepare(self, execution_id: str, *args: Any, **kwargs: Any) -> PreparedRun:
        self.prepared.append((execution_id, POLICY.profiles[next(iter(POLICY.profiles))]))
        raise SystemExit("the service was killed")


def test_a_process_that_dies_while_the_sandbox_is_made_leaves_nothing_recorded() -> None:
    sandbox = DiesBeforeStarting()
    app = _app(sandbox)
    assessed_as_an_older_main_left_it(app)  # a ledger that has begun (its very first decision is recorded first)
    with pytest.raises(SystemExit):
        app.run(b"print(1)\n")
    (execution_id, _limits) = sandbox.prepared[-1]
    with pytest.raises(ExecutionNotFound):
        app.report(execution_id)
    assert app.recover() == []  # nothing to end: its container, if made, is a dead supervisor's leftover


def test_recovery_ends_an_execution_a_dead_process_assessed_and_never_started_as_not_started() -> None:
    sandbox = FakeSandbox()
    app = _app(sandbox)
    stuck = assessed_as_an_older_main_left_it(app)
    sandbox.supervisor = "the next process"  # the service starts again

    assert app.recover() == [stuck]

    report = app.report(stuck)
    assert report.status == "rejected" and report.termination_reason == "not_started"
    assert "never started" in report.detail
    assert app.recover() == []


class LedgerGoes:
    """Wraps an application's save: while ``down``, saving an execution fails as a ledger that
    stopped answering would."""

    def __init__(self, app: MaiSafety) -> None:
        self.down = False
        self._save: Callable[..., Any] = app.save
        app.save = self.save  # type: ignore[method-assign]

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        if self.down and any(isinstance(obj, Execution) for obj in objs):
            raise LedgerUnavailable("the ledger refused connections for 1 s (connection refused)")
        return self._save(*objs, **kwargs)


def test_a_start_the_ledger_refused_records_nothing_and_gives_the_sandbox_back() -> None:
    """The decision and the start are one write: the ledger refusing it leaves nothing to end, and
    the sandbox made for the run is discarded at once; a retry with the same key runs it."""
    sandbox = FakeSandbox()
    app = _app(sandbox)
    app.run(b"print(0)\n")  # a ledger that has begun (its very first decision is recorded first)
    ledger = LedgerGoes(app)
    ledger.down = True
    with pytest.raises(LedgerUnavailable):
        app.run(b"print(1)\n", execution_id=UUID(int=7))
    with pytest.raises(ExecutionNotFound):
        app.report(str(UUID(int=7)))
    assert sandbox.discarded == ["fake-1", "fake-2"]  # the first run's after it ran; this one's at once
    assert app.in_flight.causes[str(UUID(int=7))].startswith("recording it failed")

    ledger.down = False
    assert app.sweep() == []
    assert app.run(b"print(1)\n", execution_id=app.submission_id(UUID(int=7))).status == "completed"


def test_a_ledgers_very_first_decision_is_recorded_before_its_sandbox_is_made() -> None:
    """Until its first event a ledger has no identity to label a container with (a container of no
    ledger's that serves an execution is no sweep's to remove): its very first execution is
    recorded Assessed before the sandbox is made, and a ledger refusing the start then leaves it
    named and ended as before decision 0050; every later one is one write."""
    sandbox = FakeSandbox()
    app = _app(sandbox)
    ledger = LedgerGoes(app)
    recorded_when_prepared: list[str] = []

    class Looks(FakeSandbox):
        def prepare(self, execution_id: str, *args: Any, **kwargs: Any) -> PreparedRun:
            try:
                recorded_when_prepared.append(app.report(execution_id).status)
            except ExecutionNotFound:
                recorded_when_prepared.append("nothing")
            ledger.down = len(recorded_when_prepared) == 1
            return super().prepare(execution_id, *args, **kwargs)

    app.sandbox = sandbox = Looks()
    with pytest.raises(ExecutionLeftOpen) as told:
        app.run(b"print(1)\n", execution_id=UUID(int=10))
    assert told.value.status == "assessed"
    ledger.down = False
    assert app.sweep() == [str(UUID(int=10))]
    assert app.report(str(UUID(int=10))).termination_reason == "not_started"
    assert app.run(b"print(2)\n").status == "completed"
    assert recorded_when_prepared == ["assessed", "nothing"]


def test_an_end_the_ledger_refused_after_started_names_the_execution_and_is_ended_once_the_ledger_answers() -> None:
    sandbox = FakeSandbox()
    # How long the outcome it saw is kept while the ledger refuses it: a moment here.
    app = MaiSafety(assessor=FakeAssessor(RiskLevel.LOW), sandbox=sandbox, policy=POLICY, env=_ledger(), clock=Clock(), ledger_stall_s=0.05)
    app.mode.keep_outcome_s, app.outcome_retry_s = 0.05, 0.01
    ledger = LedgerGoes(app)
    sandbox.during_run = lambda prepared: setattr(ledger, "down", True)
    with pytest.raises(ExecutionLeftOpen) as told:
        app.run(b"print(1)\n", execution_id=UUID(int=8))
    assert told.value.execution_id == str(UUID(int=8)) and told.value.status == "running"
    assert "nothing was recorded" not in told.value.message and str(UUID(int=8)) in told.value.message
    assert app.report(str(UUID(int=8))).status == "running"  # the ledger took nothing more
    assert sandbox.discarded == ["fake-1"]

    ledger.down = False
    assert app.sweep() == [str(UUID(int=8))]
    report = app.report(str(UUID(int=8)))
    assert report.status == "terminated" and report.termination_reason == "supervisor_lost"
    assert "the ledger did not answer" in report.detail and "(exit 0)" in report.detail  # the cause kept here


def test_a_retry_with_the_same_key_never_answers_a_permanently_assessed_execution() -> None:
    env = _ledger()
    app = _app(FakeSandbox(), env)
    assessed_as_an_older_main_left_it(app, UUID(int=9))
    after = _app(FakeSandbox(), env)  # the next process on the same ledger, before any sweep
    after.sandbox.supervisor = "the next process"  # type: ignore[attr-defined]

    retry = after.submission_id(UUID(int=9))

    assert after.report(str(UUID(int=9))).termination_reason == "not_started"
    assert after.run(b"print(1)\n", execution_id=retry).status == "completed"


def test_an_execution_a_live_peer_is_starting_is_left_alone_and_ended_once_its_lease_expires() -> None:
    env = _ledger()
    peer_sandbox = DiesBeforeStarting()
    peer_sandbox.supervisor = "server-a"
    peer = _app(peer_sandbox, env)
    judge_sandbox = PeerSandbox()
    judge_sandbox.supervisor = "server-b"
    judge = _app(judge_sandbox, env)
    lease_s = 1.0
    judge.liveness.lease_s = lease_s
    now = [0.0]
    judge.liveness.clock = lambda: now[0]

    peer.renew_lease()
    held = assessed_as_an_older_main_left_it(peer)  # as far as the ledger knows, server A (an older main) is starting it now
    for step in range(3):  # server B has held its own lease for a whole period
        now[0] = step * lease_s / 2
        judge.renew_lease()
    peer.renew_lease()
    assert judge.sweep() == []  # A's lease is fresh: its start is its own business

    time.sleep(lease_s * 1.2)  # A renews no more: it is gone
    now[0] += lease_s / 2
    judge.renew_lease()
    assert judge.sweep() == [held]
    assert judge.report(held).termination_reason == "not_started"
    assert "lease of server-a expired" in judge.report(held).detail
    assert judge.sweep() == [] and peer.sweep() == []  # once


class FakeLeases(Leases):
    def __init__(self) -> None:
        self.ages: dict[str, float] = {}

    def renew_lease(self, holder: str) -> None:
        self.ages[holder] = 0.0

    def release_lease(self, holder: str) -> None:
        self.ages[holder] = float("inf")

    def lease_ages(self) -> dict[str, float]:
        return dict(self.ages)


def test_after_a_gap_in_its_own_lease_a_server_judges_no_peer_for_a_whole_period() -> None:
    """A paused database stops every heartbeat: when it answers again, every lease looks expired,
    and each server must be given one period to renew before any is judged."""
    leases, now = FakeLeases(), [0.0]
    liveness = Liveness(lambda: "b", lambda holder: False, leases, InFlight(), lease_s=10.0, clock=lambda: now[0])
    for step in range(3):
        now[0] = step * 5.0
        liveness.renew()
    leases.ages["a"] = 11.0
    assert liveness.why_gone("x", "a", liveness.ages()) is not None

    now[0] = 40.0  # the database did not answer for 30 s
    liveness.renew()
    leases.ages["a"] = 31.0
    assert liveness.ages() == {} and liveness.why_gone("x", "a", liveness.ages()) is None
    now[0] = 50.0
    liveness.renew()
    assert liveness.why_gone("x", "a", liveness.ages()) is not None


def test_a_finished_run_is_recorded_as_finished_once_the_ledger_answers_again() -> None:
    sandbox = FakeSandbox()
    app = _app(sandbox)
    ledger = LedgerGoes(app)
    tries = []

    def ledger_goes(prepared: PreparedRun) -> None:
        ledger.down = True

    sandbox.during_run = ledger_goes
    original = ledger.save

    def comes_back(*objs: Any, **kwargs: Any) -> Any:
        if ledger.down:
            tries.append(1)
            if len(tries) >= 3:
                ledger.down = False
        return original(*objs, **kwargs)

    app.save = comes_back  # type: ignore[method-assign]

    report = app.run(b"print(1)\n")

    assert report.status == "completed" and report.exit_code == 0
    assert len(tries) >= 3


def test_the_503_for_an_execution_left_open_names_it_and_its_state() -> None:
    import json

    from mai_safety.infrastructure.http.problems import problem_for

    response = problem_for(ExecutionLeftOpen("execution E is recorded as assessed and ...", execution_id="E", status="assessed"))

    body = json.loads(bytes(response.body))
    assert response.status_code == 503 and response.headers["retry-after"]
    assert body["execution_id"] == "E" and body["execution_status"] == "assessed"
    assert body["type"] == "urn:mai-safety:problem:ledger-unavailable"
