"""The stored names of the events: their topics are hashed into the chains and the verifier knows
them, so a class that moves or is renamed without registering its old topic fails here first. Each
event class is explicit, with its ``class_version``."""

from __future__ import annotations

from uuid import uuid4

from eventsourcing.utils import get_topic

from mai_safety.domain.access import ApiToken, Role
from mai_safety.domain.diverged_code import DivergedCode
from mai_safety.domain.assessment import Assessment, Submission
from mai_safety.domain.execution import Execution
from mai_safety.domain.levels import Provenance, RiskLevel
from mai_safety.domain.policy_set import PolicySet
from mai_safety.domain.session import Session

STORED = {
    "mai_safety.domain.execution:Execution.Assessed": 3,
    "mai_safety.domain.execution:Execution.OverrideRequested": 2,
    "mai_safety.domain.execution:Execution.Overridden": 1,
    "mai_safety.domain.execution:Execution.Started": 2,
    "mai_safety.domain.execution:Execution.ResourceSampled": 1,
    "mai_safety.domain.execution:Execution.Completed": 2,
    "mai_safety.domain.execution:Execution.Terminated": 2,
    "mai_safety.domain.execution:Execution.Diverged": 1,
    "mai_safety.domain.access:ApiToken.TokenGranted": 2,
    "mai_safety.domain.access:ApiToken.TokenRevoked": 1,
    "mai_safety.domain.policy_set:PolicySet.Opened": 1,
    "mai_safety.domain.policy_set:PolicySet.Applied": 1,
    "mai_safety.domain.diverged_code:DivergedCode.Recorded": 1,
    "mai_safety.domain.session:Session.Opened": 1,
    "mai_safety.domain.session:Session.CellAdded": 1,
    "mai_safety.domain.session:Session.CellEnded": 2,
    "mai_safety.domain.session:Session.InterpreterRestarted": 1,
    "mai_safety.domain.session:Session.Ended": 1,
}


def _event_classes(aggregate: type) -> list[type]:
    return [
        value
        for name, value in vars(aggregate).items()
        if isinstance(value, type)
        and issubclass(value, aggregate.Event)  # type: ignore[attr-defined]
        and name not in ("Event", "Created")  # the library's base classes, never written
    ]


def test_every_event_keeps_its_stored_topic_and_declares_its_version() -> None:
    found = {get_topic(cls): getattr(cls, "class_version", None) for cls in _event_classes(Execution) + _event_classes(ApiToken) + _event_classes(PolicySet) + _event_classes(DivergedCode) + _event_classes(Session)}
    assert found == STORED


def test_the_event_classes_are_the_ones_the_aggregates_record() -> None:
    submission = Submission.from_bytes(b"print(1)\n", Provenance.MAI, 1 << 20)
    execution = Execution.assess(submission, Assessment(RiskLevel.LOW, analyzers=("fake",)))
    (assessed,) = execution.collect_events()
    assert isinstance(assessed, Execution.Assessed) and assessed.analyzers == ["fake"]
    token = ApiToken.grant(uuid4(), "alice", [Role.SUBMITTER], "0" * 64)
    token.revoke("done")
    granted, revoked = token.collect_events()
    assert isinstance(granted, ApiToken.TokenGranted) and isinstance(revoked, ApiToken.TokenRevoked)
