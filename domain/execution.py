"""The ``Execution`` aggregate: one submission's life from assessment to its end, as events.

Its events are exactly the card's: ``Assessed``, ``OverrideRequested``, ``Overridden``, ``Started``,
``ResourceSampled``, ``Terminated``, ``Completed``. Command methods check the rules and then call a
private ``@event`` method; everything non-deterministic (the clock aside, which the library stamps)
is computed by the caller and passed in, because the event bodies run again on every replay.
Payloads are plain JSON-able values so that the stored state is readable forever.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import field
from datetime import datetime
from enum import Enum
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.domain import Aggregate, event

from .assessment import Assessment, Finding, Submission
from .code_diff import code_diff
from .errors import ExplanationMissing, InvalidTransition
from .gate import AnswerTooLate, GateRules
from .levels import GateDecision, Provenance, RiskLevel, TrustLevel
from .limits import ResourceLimits
from .observed import DivergenceRecord, ObservedRecord
from .payloads import (
    CallerLabels,
    FileRecord,
    FindingRecord,
    LimitsRecord,
    NetworkRecord,
    NoNetworkRecord,
    OutcomeRecord,
    RunRequestRecord,
    RuntimeRecord,
    SizingRecord,
    UsageRecord,
)
from .run_request import RunRequest

#: Who is acting: stamped on every event by the base event class (the CLI sets it to the OS user).
actor_context: ContextVar[str] = ContextVar("mai_safety_actor", default="mai-safety")


class ExecutionStatus(str, Enum):
    ASSESSED = "assessed"
    AWAITING_OVERRIDE = "awaiting_override"
    OVERRIDDEN = "overridden"
    RUNNING = "running"
    COMPLETED = "completed"
    TERMINATED = "terminated"
    REJECTED = "rejected"  # ended before it ever started: refused, denied, or no sandbox

    @property
    def is_final(self) -> bool:
        return self in (ExecutionStatus.COMPLETED, ExecutionStatus.TERMINATED, ExecutionStatus.REJECTED)


class OverrideKind(str, Enum):
    CONFIRMATION = "confirmation"  # HIGH: the user confirms
    OVERRIDE = "override"  # BLOCKED: an authorised actor overrides with a written explanation


class Execution(Aggregate):
    """One submission's life. Each event below is an explicit class with its ``class_version``;
    its topic (``mai_safety.domain.execution:Execution.<Name>``) is hashed into the chains, so
    neither this module nor these names may ever move without registering the old topic."""

    class Event(Aggregate.Event):
        actor: str = field(default_factory=actor_context.get, init=False)

    class Assessed(Aggregate.Created, Event):
        """The code, its hash and provenance, the verdict and why (``caller``: see CallerLabels).

        Version 2 adds the policy version that judged it (``policy_version``: 0 for the shipped,
        unrecorded folder; None in version 1 events, stored before policies were recorded) and,
        for a revision, the execution it revises and a unified diff against that one's code
        (``code_diff``, bounded: see domain.code_diff). Version 3 adds the files the run is given
        (``files_in``: name, size, SHA-256 of each, the bytes a blob beside the event, domain.files);
        older events read it as None: no files."""

        class_version = 3
        code: str
        code_sha256: str
        provenance: str
        level: str
        findings: list[FindingRecord]
        analyzers: list[str]
        assessment_ms: float
        complexity: dict[str, int]
        caller: CallerLabels | None = None
        policy_version: int | None = None
        revises: str | None = None
        code_diff: str | None = None
        files_in: list[FileRecord] | None = None

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state["policy_version"] = None  # judged before policies were recorded: "unrecorded"
            state["revises"] = None
            state["code_diff"] = None

        @staticmethod
        def upcast_v2_v3(state: dict[str, Any]) -> None:
            state["files_in"] = None  # given no files: there were none before version 3

    @event(Assessed)
    def __init__(
        self,
        *,
        code: str,
        code_sha256: str,
        provenance: str,
        level: str,
        findings: list[FindingRecord],
        analyzers: list[str],
        assessment_ms: float,
        complexity: dict[str, int],
        caller: CallerLabels | None = None,
        policy_version: int | None = None,
        revises: str | None = None,
        code_diff: str | None = None,
        files_in: list[FileRecord] | None = None,
    ) -> None:
        self.code = code
        self.files_in: list[FileRecord] = list(files_in or [])
        self.policy_version = policy_version
        self.revises = revises
        self.code_diff = code_diff
        # Service mode: who submitted (the token's principal), and the caller's labels: Mai's task
        # and session, the end user it acts for. Labels are recorded, never used for a decision.
        self.caller: CallerLabels = caller.copy() if caller else {}
        self.submitted_by: str | None = self.caller.get("principal")
        self.code_sha256 = code_sha256
        self.provenance = Provenance(provenance)
        self.level = RiskLevel(level)
        self.findings = [Finding.from_dict(item) for item in findings]
        self.complexity = dict(complexity)
        self.supervisor: str | None = None
        self.status = ExecutionStatus.ASSESSED
        self.override_kind: OverrideKind | None = None
        self.answer_by: datetime | None = None
        self.request: RunRequest | None = None  # what a waiting execution asked for (None before v2)
        self.container_id: str | None = None
        self.limits: ResourceLimits | None = None
        self.trust: TrustLevel | None = None
        self.samples: list[UsageRecord] = []
        self.started_on: datetime | None = None  # when Started was recorded (its event's time)
        self.outcome: OutcomeRecord = {}
        self.observed: ObservedRecord | None = None  # what the run was seen to do from outside (decision 0044)
        self.divergences: list[DivergenceRecord] = []

    @classmethod
    def assess(
        cls,
        submission: Submission,
        assessment: Assessment,
        *,
        caller: CallerLabels | None = None,
        execution_id: UUID | None = None,
        policy_version: int | None = None,
        revises: "Execution | None" = None,
        files_in: list[FileRecord] | None = None,
    ) -> "Execution":
        """``execution_id``: a chosen id (the service derives one from an Idempotency-Key);
        else a new random one. ``policy_version``: the policy that judged it; ``revises``: the
        earlier execution this code revises (a diff against its code is recorded); ``files_in``:
        the files the run is given (stored as blobs before this event is saved)."""
        return cls._create(
            cls.Assessed,
            id=execution_id or uuid4(),
            caller=caller or None,
            code=submission.code,
            code_sha256=submission.sha256,
            provenance=submission.provenance.value,
            level=assessment.level.value,
            findings=[finding.to_dict() for finding in assessment.findings],
            analyzers=list(assessment.analyzers),
            assessment_ms=round(assessment.duration_ms, 3),
            complexity=dict(assessment.complexity),
            policy_version=policy_version,
            revises=str(revises.id) if revises is not None else None,
            code_diff=code_diff(revises.code, submission.code, f"{revises.id}", "this submission") if revises else None,
            files_in=files_in or None,
        )

    @property
    def labels(self) -> CallerLabels:
        """The caller's labels, without the principal (the service stamps that, not the caller)."""
        labels = self.caller.copy()
        labels.pop("principal", None)
        return labels

    @property
    def decision(self) -> GateDecision:
        return GateDecision.for_level(self.level)

    # --- the gate -------------------------------------------------------------------------

    def request_override(self, reason: str, answer_by: datetime, request: RunRequest | None = None) -> None:
        """Wait for an answer, keeping ``request``: what the answer will run, exactly."""
        self._require(ExecutionStatus.ASSESSED, "request an override")
        if self.decision.may_run_now:
            raise InvalidTransition(f"execution {self.id} is {self.level.value} and may run without an override")
        kind = OverrideKind.OVERRIDE if self.level is RiskLevel.BLOCKED else OverrideKind.CONFIRMATION
        self._request_override(
            kind=kind.value,
            reason=reason,
            answer_by=answer_by.isoformat(),
            request=request.to_dict() if request is not None else None,
        )

    class OverrideRequested(Event):
        """Version 2 keeps what was asked (``RunRequest.to_dict()``); version 1 events, stored
        before, carry no request and are read with ``request=None``: their answer runs with the
        answering command's own limits, as it did then. Stored bytes are never rewritten (the chain
        hashes cover them); the upcast happens only as they are read."""

        class_version = 2
        kind: str  # an OverrideKind's value
        reason: str
        answer_by: str  # ISO 8601; "" in the first events, before answer times
        request: RunRequestRecord | None

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state.setdefault("answer_by", "")  # absent from the first events, before answer times
            state["request"] = None

    @event(OverrideRequested)
    def _request_override(self, kind: str, reason: str, answer_by: str, request: RunRequestRecord | None) -> None:
        self.override_kind = OverrideKind(kind)
        self.answer_by = datetime.fromisoformat(answer_by) if answer_by else None
        self.request = RunRequest.from_dict(request) if request is not None else None
        self.status = ExecutionStatus.AWAITING_OVERRIDE

    def is_overdue(self, now: datetime) -> bool:
        return self.status is ExecutionStatus.AWAITING_OVERRIDE and self.answer_by is not None and now > self.answer_by

    def override(
        self, explanation: str, rules: GateRules | Any, actor: str, now: datetime, *, on_behalf_of: str | None = None
    ) -> None:
        """Confirm (HIGH) or override (BLOCKED): the actor must be allowed (``rules``: the policy's
        names, or in service mode the roles, see domain.access) and in time."""
        self._require(ExecutionStatus.AWAITING_OVERRIDE, "confirm or override")
        assert self.override_kind is not None
        if self.is_overdue(now):
            raise AnswerTooLate(
                f"execution {self.id} waited for an answer until {self.answer_by:%Y-%m-%d %H:%M:%S %Z}; "
                "it is too late: submit the code again"
            )
        rules.check_may_answer(self.override_kind.value, actor)
        if self.override_kind is OverrideKind.OVERRIDE and not explanation.strip():
            raise ExplanationMissing("overriding BLOCKED code needs a written explanation")
        self._overridden(kind=self.override_kind.value, explanation=explanation, on_behalf_of=on_behalf_of)

    def deny(self, reason: str, rules: GateRules | Any, actor: str) -> None:
        """Refuse a waiting execution: it ends without ever running."""
        self._require(ExecutionStatus.AWAITING_OVERRIDE, "deny")
        assert self.override_kind is not None
        rules.check_may_answer(self.override_kind.value, actor)
        self._terminated(reason="denied", outcome={"detail": reason or "denied"})

    def expire(self, now: datetime) -> None:
        """No answer came in time: the execution ends without running."""
        if not self.is_overdue(now):
            raise InvalidTransition(f"execution {self.id} is not waiting past its answer time")
        self._terminated(reason="no_answer", outcome={"detail": f"no answer by {self.answer_by:%Y-%m-%d %H:%M:%S %Z}"})

    class Overridden(Event):
        """The answer: a confirmation (HIGH) or an override (BLOCKED, with its explanation), by the
        event's actor, possibly for an end user (``on_behalf_of``, absent from the first events)."""

        class_version = 1
        kind: str
        explanation: str
        on_behalf_of: str | None = None

    @event(Overridden)
    def _overridden(self, kind: str, explanation: str, on_behalf_of: str | None = None) -> None:
        self.status = ExecutionStatus.OVERRIDDEN

    # --- the run --------------------------------------------------------------------------

    def start(
        self,
        *,
        container_id: str,
        image: str,
        limits: ResourceLimits,
        trust: TrustLevel,
        supervisor: str = "",
        sizing: SizingRecord | None = None,
        network: NetworkRecord | None = None,
        runtime: RuntimeRecord | None = None,
    ) -> None:
        may_start = self.status is ExecutionStatus.OVERRIDDEN or (
            self.status is ExecutionStatus.ASSESSED and self.decision.may_run_now
        )
        if not may_start:
            raise InvalidTransition(
                f"execution {self.id} cannot start: it is {self.status.value} at level {self.level.value}"
            )
        self._started(
            container_id=container_id,
            image=image,
            limits=limits.to_dict(),
            trust=trust.value,
            supervisor=supervisor,
            sizing=sizing or {},
            network=network or {"mode": "none"},
            runtime=runtime or {"name": "runc"},
            policy_version=self.policy_version,
        )

    class Started(Event):
        """The run began: its container, image, limits and trust level, the supervisor watching it,
        why it got those limits, its network, and its runtime. The last four are absent from the
        oldest events (read as ``""`` and ``None``). Version 2 adds the policy version it was
        sized under (the one that judged it); version 1 events read it as None ("unrecorded")."""

        class_version = 2
        container_id: str
        image: str
        limits: LimitsRecord
        trust: str
        supervisor: str = ""
        sizing: SizingRecord | None = None
        network: NetworkRecord | NoNetworkRecord | None = None
        runtime: RuntimeRecord | None = None  # absent before decision 0013: runc
        policy_version: int | None = None

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state["policy_version"] = None

        def apply(self, aggregate: Any) -> None:
            super().apply(aggregate)  # the decorated method below
            aggregate.started_on = self.timestamp  # the library sets modified_on only after apply

    @event(Started)
    def _started(
        self,
        container_id: str,
        image: str,
        limits: LimitsRecord,
        trust: str,
        supervisor: str = "",
        sizing: SizingRecord | None = None,
        network: NetworkRecord | NoNetworkRecord | None = None,
        runtime: RuntimeRecord | None = None,
        policy_version: int | None = None,
    ) -> None:
        self.supervisor = supervisor
        self.container_id = container_id
        self.limits = ResourceLimits.from_dict(limits)
        self.trust = TrustLevel(trust)
        self.status = ExecutionStatus.RUNNING

    def record_sample(self, sample: UsageRecord) -> None:
        self._require(ExecutionStatus.RUNNING, "record a resource sample")
        self._resource_sampled(sample=sample)

    class ResourceSampled(Event):
        """One reading of the running code (``Usage.to_dict()``)."""

        class_version = 1
        sample: UsageRecord

    @event(ResourceSampled)
    def _resource_sampled(self, sample: UsageRecord) -> None:
        self.samples.append(sample)

    def complete(self, outcome: OutcomeRecord, observed: ObservedRecord | None = None) -> None:
        self._require(ExecutionStatus.RUNNING, "complete")
        self._completed(outcome=outcome, observed=observed)

    class Completed(Event):
        """The program ran to its own end: its exit and output. Version 2 adds ``observed``: what
        the run was seen to do from outside the code (domain.observed), beside the self-reported
        ``attempted`` in the outcome's observations; version 1 events read it as None (not observed)."""

        class_version = 2
        outcome: OutcomeRecord
        observed: ObservedRecord | None = None

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state["observed"] = None  # ended before the observed record existed

    @event(Completed)
    def _completed(self, outcome: OutcomeRecord, observed: ObservedRecord | None = None) -> None:
        self.outcome = outcome
        self.observed = observed
        self.status = ExecutionStatus.COMPLETED

    def terminate(self, reason: str, outcome: OutcomeRecord | None = None, observed: ObservedRecord | None = None) -> None:
        if self.status.is_final:
            raise InvalidTransition(f"execution {self.id} has already ended ({self.status.value})")
        self._terminated(reason=reason, outcome=outcome or {}, observed=observed)

    class Terminated(Event):
        """It ended otherwise: stopped by a limit, cancelled, denied, unanswered, or lost with its
        supervisor (``reason``), and what is known of how (``outcome``). Version 2 adds ``observed``,
        as ``Completed`` does (None: not observed, or it never ran)."""

        class_version = 2
        reason: str
        outcome: OutcomeRecord
        observed: ObservedRecord | None = None

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state["observed"] = None

    @event(Terminated)
    def _terminated(self, reason: str, outcome: OutcomeRecord, observed: ObservedRecord | None = None) -> None:
        self.outcome = {**outcome, "termination_reason": reason}
        self.observed = observed
        started = self.status is ExecutionStatus.RUNNING
        self.status = ExecutionStatus.TERMINATED if started else ExecutionStatus.REJECTED

    def diverge(self, divergences: list[DivergenceRecord]) -> None:
        """Record what the run was observed to do that its assessment did not predict at its level."""
        if not self.status.is_final or not divergences:
            raise InvalidTransition(f"execution {self.id} cannot diverge: it is {self.status.value}")
        self._diverged(level=self.level.value, code_sha256=self.code_sha256, divergences=divergences)

    class Diverged(Event):
        """Observed effects its assessment did not predict at ``level`` (domain.observed): from now
        on this code (``code_sha256``) is rated at least HIGH."""

        class_version = 1
        level: str
        code_sha256: str
        divergences: list[DivergenceRecord]

    @event(Diverged)
    def _diverged(self, level: str, code_sha256: str, divergences: list[DivergenceRecord]) -> None:
        self.divergences = list(divergences)

    def _require(self, status: ExecutionStatus, action: str) -> None:
        if self.status is not status:
            raise InvalidTransition(
                f"cannot {action}: execution {self.id} is {self.status.value}, not {status.value}"
            )
