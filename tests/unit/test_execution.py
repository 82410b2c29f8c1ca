"""The Execution aggregate's rules, with no I/O."""

from __future__ import annotations

import pytest

from datetime import datetime, timedelta, timezone

from mai_safety.domain.assessment import Assessment, Finding, Submission
from mai_safety.domain.errors import InvalidSubmission, InvalidTransition
from mai_safety.domain.execution import Execution, ExecutionStatus, actor_context
from mai_safety.domain.gate import AnswerTooLate, GateRules, NotPermitted
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.domain.limits import ResourceLimits

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
RULES = GateRules(confirmers=("*",), overriders=("security-*",), answer_within=timedelta(minutes=10))
LIMITS = ResourceLimits(cpus=1, memory_bytes=2**27, pids=64, timeout_s=5, output_bytes=2**16, tmpfs_bytes=2**24)


def _execution(level: RiskLevel = RiskLevel.LOW) -> Execution:
    submission = Submission.from_bytes(b"print('hi')\n", Provenance.MAI, 1024)
    findings = () if level is RiskLevel.LOW else (Finding("bandit", "B1", level, "why"),)
    return Execution.assess(submission, Assessment(level=level, findings=findings))


def _names(execution: Execution) -> list[str]:
    return [type(event).__name__ for event in execution.collect_events()]


def test_low_code_runs_through_assessed_started_completed() -> None:
    execution = _execution()
    execution.start(container_id="c1", image="img", limits=LIMITS, trust=TrustLevel.STANDARD)
    execution.complete({"exit_code": 0})
    assert _names(execution) == ["Assessed", "Started", "Completed"]
    assert execution.status is ExecutionStatus.COMPLETED


def test_high_code_cannot_start_before_an_override() -> None:
    execution = _execution(RiskLevel.HIGH)
    with pytest.raises(InvalidTransition):
        execution.start(container_id="c1", image="img", limits=LIMITS, trust=TrustLevel.UNTRUSTED)


def test_blocked_code_needs_a_written_explanation_to_be_overridden() -> None:
    execution = _execution(RiskLevel.BLOCKED)
    execution.request_override("blocked", RULES.answer_by(NOW))
    with pytest.raises(InvalidTransition):
        execution.override("   ", RULES, "security-lead", NOW)
    execution.override("reviewed by security: test fixture", RULES, "security-lead", NOW)
    execution.start(container_id="c1", image="img", limits=LIMITS, trust=TrustLevel.UNTRUSTED)
    assert _names(execution) == ["Assessed", "OverrideRequested", "Overridden", "Started"]


def test_low_code_needs_no_override() -> None:
    with pytest.raises(InvalidTransition):
        _execution().request_override("why", NOW)


def test_a_finished_execution_cannot_end_twice() -> None:
    execution = _execution()
    execution.start(container_id="c1", image="img", limits=LIMITS, trust=TrustLevel.STANDARD)
    execution.terminate("timeout", {"exit_code": 137})
    with pytest.raises(InvalidTransition):
        execution.complete({"exit_code": 0})
    with pytest.raises(InvalidTransition):
        execution.terminate("memory")


def test_ending_before_starting_is_a_rejection_not_a_termination() -> None:
    execution = _execution(RiskLevel.HIGH)
    execution.request_override("high", RULES.answer_by(NOW))
    execution.deny("not today", RULES, "alice")
    assert execution.status is ExecutionStatus.REJECTED
    assert execution.outcome["termination_reason"] == "denied"


def test_only_an_allowed_actor_may_override_blocked_code() -> None:
    execution = _execution(RiskLevel.BLOCKED)
    execution.request_override("blocked", RULES.answer_by(NOW))
    with pytest.raises(NotPermitted, match="may not override"):
        execution.override("I know what I am doing", RULES, "mai-assistant", NOW)
    with pytest.raises(NotPermitted):
        execution.deny("no", RULES, "mai-assistant")
    assert execution.status is ExecutionStatus.AWAITING_OVERRIDE


def test_anyone_acting_for_the_user_may_confirm_high_code_when_the_policy_says_so() -> None:
    execution = _execution(RiskLevel.HIGH)
    execution.request_override("high", RULES.answer_by(NOW))
    execution.override("", RULES, "alice@laptop", NOW)
    assert execution.status is ExecutionStatus.OVERRIDDEN


def test_an_answer_after_the_deadline_is_refused_and_the_execution_expires() -> None:
    execution = _execution(RiskLevel.HIGH)
    execution.request_override("high", RULES.answer_by(NOW))
    later = NOW + timedelta(minutes=11)
    with pytest.raises(AnswerTooLate):
        execution.override("", RULES, "alice", later)
    execution.expire(later)
    assert execution.status is ExecutionStatus.REJECTED
    assert execution.outcome["termination_reason"] == "no_answer"


def test_the_override_event_names_its_actor_and_explanation() -> None:
    token = actor_context.set("security-lead")
    try:
        execution = _execution(RiskLevel.BLOCKED)
        execution.request_override("blocked", RULES.answer_by(NOW))
        execution.override("pentest fixture, ticket 42", RULES, "security-lead", NOW)
    finally:
        actor_context.reset(token)
    overridden = execution.collect_events()[-1]
    assert type(overridden).__name__ == "Overridden"
    assert (overridden.actor, overridden.explanation, overridden.kind) == ("security-lead", "pentest fixture, ticket 42", "override")


def test_samples_are_only_recorded_while_running() -> None:
    execution = _execution()
    with pytest.raises(InvalidTransition):
        execution.record_sample({"memory_bytes": 1})


def test_every_event_carries_the_actor_acting_when_it_happened() -> None:
    token = actor_context.set("alice@host")
    try:
        execution = _execution(RiskLevel.HIGH)
        execution.request_override("high", RULES.answer_by(NOW))
    finally:
        actor_context.reset(token)
    assert {event.actor for event in execution.collect_events()} == {"alice@host"}


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        (b"", "empty"),
        (b"  \n\t\n", "empty"),
        (b"print(1)\x00", "NUL byte"),
        (b"print('\xff')", "not valid UTF-8"),
        (b"x = 1\n" * 300, "over the limit"),
    ],
)
def test_bad_submissions_are_refused_with_the_problem_named(raw: bytes, problem: str) -> None:
    with pytest.raises(InvalidSubmission, match=problem):
        Submission.from_bytes(raw, Provenance.MAI, max_bytes=1000)
