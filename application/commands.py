"""The commands that change executions: assess, run, approve, deny, cancel.

A command loads an execution, calls one of its command methods, saves, and returns a report;
the sizing of a run lives in application.sizing, its supervision in application.supervision,
the end of what nobody will move on in application.upkeep.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast
from uuid import UUID, uuid5

from eventsourcing.persistence import IntegrityError, PersistenceError

from mai_safety.domain.access import Action, check_acting_principal_may, check_acting_principal_may_claim, NobodyAnswers, RolesDecide, principal_context
from mai_safety.domain.assessment import Submission
from mai_safety.domain.execution import Execution, ExecutionStatus, actor_context
from mai_safety.domain.gate import AnswerTooLate
from mai_safety.domain.levels import RiskLevel
from mai_safety.domain.errors import InvalidSubmission, InvalidTransition
from mai_safety.domain.files import InputFile, input_files
from mai_safety.domain.limits import HostBusy, RequestedLimits
from mai_safety.domain.network import NetworkMode
from mai_safety.domain.payloads import CallerLabels
from mai_safety.ledger import Clock

from .abandoned import InFlight
from .divergence import with_floor
from .errors import ExecutionLeftOpen, ExecutionNotFound, IdempotencyConflict, LedgerUnavailable
from .files import assess_with_inputs, store_inputs
from .live import LiveOutput
from .policies import PolicyCommands
from .ports import BlobStore, PackageIndex, Sandbox
from .reports import AssessmentReport, ExecutionReport, report_for
from .retry import retry_concurrent_writes
from .run_command import RunCommand
from .sizing import Sizer, Sizing
from .store import ExecutionStore
from .supervision import Sampling, Supervisor
from .upkeep import Upkeep

#: Ends that mean the code never ran for want of the host (or of the process that was to start
#: it); the caller is told to try again, and a retry with the same key runs it afresh.
RETRYABLE_ENDS = frozenset({"host_busy", "sandbox_unavailable", "not_started"})


@dataclass
class ServiceMode:
    """How the process that runs the commands serves: set by the composition root.

    ``roles_decide``: the token's roles answer the gate, never ``policies/gate.yaml``'s names, and
    with no principal nobody does (docs/decisions/0016). ``live``: the output of the runs this
    process supervises, as it comes, for the event streams (application.live); None (the CLI)
    leaves the capture as it was. ``keep_outcome_s``, ``outcome_retry_s``: how long a supervisor
    keeps the outcome it saw while the ledger does not take it, and how often it tries again."""

    roles_decide: bool = False
    live: LiveOutput | None = None
    keep_outcome_s: float = 60.0
    outcome_retry_s: float = 1.0


@dataclass
class RunSettings:
    """What a run is recorded with: output over ``inline_output_bytes`` goes to ``blobs``; a
    ledger silent for ``ledger_stall_s`` ends the run; ``package_index`` resolves requirements."""

    blobs: BlobStore | None
    inline_output_bytes: int
    ledger_stall_s: float
    package_index: PackageIndex | None


class ExecutionCommands:
    """Records and runs executions on ``store``, judged and sized by the policy in force
    (``policies``), run in ``sandbox``; ``report`` answers each command (the query)."""

    def __init__(
        self,
        store: ExecutionStore,
        policies: PolicyCommands,
        sandbox: Sandbox,
        upkeep: Upkeep,
        report: Callable[[UUID | Execution], ExecutionReport],
        settings: RunSettings,
        mode: ServiceMode,
        in_flight: InFlight,
        clock: Clock,
    ) -> None:
        self.store = store
        self.policies = policies
        self.sandbox = sandbox
        self.upkeep = upkeep
        self.report = report
        self.settings = settings
        self.mode = mode
        self.in_flight = in_flight
        self.clock = clock
        #: Sessions (application.sessions): runs an answered cell in its session, not in a container of its own.
        self.session_cells: Callable[[Execution, str, str | None], ExecutionReport] | None = None

    def assess(self, submission: RunCommand) -> AssessmentReport:
        """The verdict alone: nothing is recorded and nothing runs."""
        check_acting_principal_may(Action.ASSESS)
        check_acting_principal_may_claim(submission.provenance)
        self.policies.follow_policy()  # judged by the version in force now, as a submission is
        code = Submission.from_bytes(submission.code, submission.provenance, self.policies.policy.max_code_bytes, submission.source)
        return report_for(code, with_floor(self.policies.assessor.assess(code), code, self.store.repository.get))

    def run(self, command: RunCommand) -> ExecutionReport:
        """Assess, record, and run if the gate allows; everything is checked before anything is
        stored (application.run_command says what each part of ``command`` asks)."""
        check_acting_principal_may(Action.SUBMIT)
        check_acting_principal_may_claim(command.provenance)  # provenance is a claim: what it earns is granted
        self.policies.follow_policy()
        submission = Submission.from_bytes(command.code, command.provenance, self.policies.policy.max_code_bytes, command.source)
        inputs = input_files(command.files or {}, self.policies.policy.files)
        revised = self.store.get_visible(command.revises) if command.revises is not None else None
        execution_id = command.execution_id
        if execution_id is not None:
            execution_id = self.submission_id(execution_id)
            existing = self._submitted_already(execution_id, submission)
            if existing is not None:
                return existing
        try:
            return self._assess_and_run(submission, command, execution_id, revised, inputs)
        except IntegrityError:
            # Another request with the same id recorded it first: answer with that one.
            existing = self._submitted_already(execution_id, submission) if execution_id is not None else None
            if existing is None:
                raise
            return existing

    def _assess_and_run(
        self,
        submission: Submission,
        command: RunCommand,
        execution_id: UUID | None,
        revised: Execution | None,
        inputs: tuple[InputFile, ...],
    ) -> ExecutionReport:
        policy, assessor = self.policies.policy, self.policies.assessor  # one version judges and sizes it, whatever is applied meanwhile
        assessment = with_floor(assess_with_inputs(assessor, submission, inputs, policy.max_code_bytes), submission, self.store.repository.get)
        sizing = Sizer(policy, self.settings.package_index).size(
            command.provenance, assessment.level, assessment.complexity, command.requested,
            network=command.network, requirements=command.requirements, code=submission.code, image=command.image,
        )
        execution = Execution.assess(
            submission, assessment, caller=self._caller(command.caller), execution_id=execution_id,
            policy_version=policy.version, revises=revised,
            files_in=store_inputs(self.settings.blobs, inputs),  # the blobs first: no event names one that is not there
        )
        if assessment.decision.may_run_now:
            ended = self._save_and_run(execution, sizing)  # Assessed is stored with Started, once the sandbox is ready
            return self.report(ended or execution.id)
        needs = "a written override" if assessment.level is RiskLevel.BLOCKED else "the user's confirmation"
        execution.request_override(
            f"{assessment.level.value} code needs {needs}",
            policy.rules.answer_by(self.clock()),
            sizing.request(command.provenance, command.requested),
        )
        answer = command.override if assessment.level is RiskLevel.BLOCKED else ("confirmed" if command.confirm else None)
        if answer is None:
            self.store.save(execution)
            return self.report(execution.id)
        # Answered up front: checked in full before the request and the answer are stored together.
        execution.override(answer, self._authority(execution), actor_context.get(), self.clock())
        return self.report(self._save_and_run(execution, sizing) or execution.id)

    def approve(
        self,
        execution_id: UUID | str,
        explanation: str = "",
        *,
        requested: RequestedLimits | None = None,
        network: NetworkMode | None = None,
        requirements: tuple[str, ...] | list[str] | None = None,
        kind: str | None = None,
        on_behalf_of: str | None = None,
    ) -> ExecutionReport:
        """Confirm (HIGH) or override (BLOCKED) a waiting execution, then run exactly what it asked
        for when it was submitted, if the policy in force still grants it (RequestNoLongerGranted:
        nothing runs, nothing is recorded).

        ``requested``, ``network`` and ``requirements`` serve only executions recorded before their
        request was kept (``OverrideRequested`` version 1); for any other they are refused.
        ``kind`` ("confirmation" or "override"), when given, must be what the execution waits for."""
        execution = self.store.get_visible(execution_id)
        self._check_answerable(execution, kind)
        if self.session_cells is not None and execution.caller.get("sandbox_session"):
            return self.session_cells(execution, explanation, on_behalf_of)  # runs in its session (application.sessions)
        sizing = self._sizing_of_answer(execution, requested, network, requirements)
        execution.override(explanation, self._authority(execution), actor_context.get(), self.clock(), on_behalf_of=on_behalf_of)
        return self.report(self._save_and_run(execution, sizing) or execution.id)

    def _check_answerable(self, execution: Execution, kind: str | None) -> None:
        """The answer is of the kind the execution waits for, and in time: one that comes too late
        ends the execution unrun (recorded) and is refused."""
        if kind is not None and execution.override_kind is not None and execution.override_kind.value != kind:
            needs = "an override (BLOCKED code)" if execution.override_kind.value == "override" else "a confirmation (HIGH code)"
            raise InvalidTransition(f"execution {execution.id} waits for {needs}, not a {kind}")
        if execution.is_overdue(self.clock()):
            execution.expire(self.clock())
            self.store.save(execution)
            raise AnswerTooLate(
                f"execution {execution.id} waited for an answer until {execution.answer_by:%Y-%m-%d %H:%M:%S %Z}; "
                "it has now ended unrun (no_answer): submit the code again"
            )

    def _sizing_of_answer(
        self,
        execution: Execution,
        requested: RequestedLimits | None,
        network: NetworkMode | None,
        requirements: tuple[str, ...] | list[str] | None,
    ) -> Sizing:
        """What an answered execution runs with: what it asked for when it was submitted, or, for
        one waiting since before requests were kept, what the answer asks for (as it was then)."""
        sizer = Sizer(self.policies.policy, self.settings.package_index)  # the policy in force now
        if execution.request is None:
            return sizer.size(
                execution.provenance, execution.level, execution.complexity, requested or RequestedLimits(),
                network=network or NetworkMode.NONE, requirements=requirements or (), code=execution.code,
            )
        if requested is not None or network is not None or requirements is not None:
            raise InvalidSubmission(
                f"execution {execution.id} runs the limits and network it asked for when it was submitted; "
                "an answer cannot change them: deny it and submit the code again with the ones you want"
            )
        return sizer.as_recorded(execution.id, execution.level, execution.complexity, execution.code, execution.request)

    def deny(self, execution_id: UUID | str, reason: str = "") -> ExecutionReport:
        execution = self.store.get_visible(execution_id)
        execution.deny(reason, self._authority(execution), actor_context.get())
        self.store.save(execution)
        return self.report(execution.id)

    def cancel(self, execution_id: UUID | str) -> ExecutionReport:
        """Stop a waiting or running execution; recorded as Terminated (cancelled) with the actor.

        The end is recorded first, then the container is killed: the supervisor, in this process or
        another, finds the execution ended when it next writes, and stops. WriteContended if the
        supervisor wrote before every attempt (nothing recorded, nothing killed)."""

        def cancel() -> Execution:
            execution = self.store.get_visible(execution_id)
            principal = principal_context.get()
            if principal is not None:
                principal.check_may_cancel(self.store.submitted_by(execution))
            if execution.status.is_final:
                raise InvalidTransition(f"execution {execution.id} has already ended ({execution.status.value})")
            execution.terminate("cancelled", {"detail": f"cancelled by {actor_context.get()}"})
            self.store.save(execution)
            return execution

        execution = retry_concurrent_writes(cancel, f"the cancellation of execution {execution_id}")
        self.sandbox.remove_execution(str(execution.id))
        return self.report(execution.id)

    def _save_and_run(self, execution: Execution, sizing: Sizing) -> Execution | None:
        """Make the sandbox ready, then record what was decided and that the run started in one
        write, then run it; the execution as its end recorded it, or None (read it again). Nothing is recorded before the sandbox is ready: a sandbox that
        refuses (no room, no image) is recorded with the decision as the execution's end, and an
        engine that does not answer at all records nothing. Once recorded, the execution ends
        whatever fails: here, or (the ledger not answering) by recovery, with the cause kept here;
        and the caller is told which execution was left in which state (ExecutionLeftOpen)."""
        supervisor = self._supervisor()
        key, cause, opened = str(execution.id), None, None
        self.in_flight.enter(key)
        try:
            if not self.store.began():
                # A ledger's very first decision is recorded before its first sandbox is made: until
                # then the ledger has no identity (its first event's hash) to label that container
                # with, and a container of no ledger's that serves an execution is no sweep's to
                # remove (infrastructure/sandbox/cleanup.py). As before decision 0050, once.
                self.sandbox.check_available()
                self.store.save(execution)
                opened = execution.status.value
            ready = supervisor.ready(execution, sizing, self.sandbox.check_available)
            try:
                self.store.save(execution)  # if this fails, nothing was recorded, as a rule
            except Exception as exc:
                # ... but a commit the database took may be reported failed: if so, nobody here starts it.
                cause = f"recording it failed ({type(exc).__name__}: {_first_line(exc)})"
                if ready.prepared is not None:
                    self.sandbox.discard(ready.prepared)
                if opened is not None and isinstance(exc, (LedgerUnavailable, PersistenceError)) and not isinstance(exc, IntegrityError):
                    raise self._left_open(execution.id, opened, cause) from exc
                raise
            if ready.refused is not None:
                raise ready.refused  # recorded as the execution's end (host_busy, sandbox_unavailable)
            if ready.prepared is None:
                return None  # ended unrun, recorded: its inputs could not be served
            recorded = execution.status.value
            try:
                return supervisor.watch(execution, ready.prepared)
            except (LedgerUnavailable, PersistenceError) as exc:
                cause = f"the ledger failed: {_first_line(exc)}"
                if isinstance(exc, IntegrityError):
                    # Another writer moved it on (a cancel), or a write the ledger took was
                    # reported failed and tried again: if it is still open, nobody here moves it on.
                    raise
                raise self._left_open(execution.id, recorded, cause) from exc
            except Exception as exc:
                # If it was not said and recorded where it arose, the execution is still open and
                # this process has given it up.
                cause = f"this server gave it up ({type(exc).__name__}: {_first_line(exc)})"
                raise
        finally:
            self.in_flight.leave(key, cause)

    def _left_open(self, execution_id: UUID, recorded: str, cause: str) -> ExecutionLeftOpen:
        """End what is still pending now if the ledger takes it; either way, the error that names it."""
        try:
            execution = self.store.get(execution_id)
            if execution.status.value in ("assessed", "overridden"):
                execution.terminate("not_started", {"detail": f"recorded as {execution.status.value} and never started: {cause}"})
                self.store.save(execution)
                self.in_flight.forget(str(execution_id))
                return ExecutionLeftOpen(
                    f"execution {execution_id} was recorded but never started ({cause}); it was ended unrun "
                    "(not_started): try again (over HTTP, the same Idempotency-Key runs it afresh)",
                    execution_id=str(execution_id), status=execution.status.value,
                )
            recorded = execution.status.value
        except Exception:  # noqa: BLE001 - the ledger still fails: recovery ends it with the cause kept here
            pass
        ends = "ended unrun (not_started)" if recorded in ("assessed", "overridden") else "ended"
        return ExecutionLeftOpen(
            f"execution {execution_id} is recorded as {recorded} and {cause}; recovery has it {ends} once the "
            "ledger answers: read it then, or try again (over HTTP, the same Idempotency-Key finds it)",
            execution_id=str(execution_id), status=recorded,
        )

    def _supervisor(self) -> Supervisor:
        """The supervisor of one run, under the policy in force (application.supervision)."""
        policy = self.policies.policy
        return Supervisor(
            self.sandbox,
            self.store.save,
            self.store.get,
            sampling=Sampling(policy.sample_every_s, policy.sample_above),
            blobs=self.settings.blobs,
            inline_output_bytes=self.settings.inline_output_bytes,
            ledger_stall_s=self.settings.ledger_stall_s,
            live=self.mode.live,
            keep_outcome_s=self.mode.keep_outcome_s,
            retry_s=self.mode.outcome_retry_s,
            lookup=self.store.repository.get,
        )

    # --- who acts (service mode: the token's principal; docs/decisions/0016) ---------------

    def _caller(self, labels: dict[str, str] | None) -> CallerLabels | None:
        principal = principal_context.get()
        recorded = {key: value for key, value in (labels or {}).items() if value}
        if principal is not None:
            recorded = {"principal": principal.name, **recorded}
        return cast(CallerLabels, recorded) if recorded else None  # the caller's labels: task_id, session_id, on_behalf_of

    def _authority(self, execution: Execution) -> Any:
        """Who may answer the gate: the roles in service mode, the policy's names in local mode."""
        principal = principal_context.get()
        if principal is not None:
            return RolesDecide(principal, self.store.submitted_by(execution))
        return NobodyAnswers() if self.mode.roles_decide else self.policies.policy.rules

    # --- idempotent submissions -----------------------------------------------------------

    def submission_id(self, execution_id: UUID) -> UUID:
        """The execution an idempotent submission names: ``execution_id`` itself, unless that
        attempt ended unrun for want of the host (no room, no Docker: the caller was told to try
        again), then the next attempt derived from it. A retry with the same key thus runs once."""
        candidate = execution_id
        for attempt in range(1, 1000):
            try:
                execution = self.store.get(candidate)
            except ExecutionNotFound:
                return candidate
            if execution.status in (ExecutionStatus.ASSESSED, ExecutionStatus.OVERRIDDEN):
                execution = self.upkeep.end_if_abandoned(execution)
            if not (
                execution.status is ExecutionStatus.REJECTED
                and execution.outcome.get("termination_reason") in RETRYABLE_ENDS
            ):
                return candidate
            candidate = uuid5(execution_id, f"attempt {attempt}")
        raise HostBusy(f"execution {execution_id} was refused for want of room 1000 times: use a new Idempotency-Key")

    def _submitted_already(self, execution_id: UUID, submission: Submission) -> ExecutionReport | None:
        try:
            execution = self.store.get(execution_id)
        except ExecutionNotFound:
            return None
        if execution.code_sha256 != submission.sha256:
            raise IdempotencyConflict(
                f"this Idempotency-Key already names execution {execution.id}, of other code: use a new key for new code"
            )
        if execution.status in (ExecutionStatus.ASSESSED, ExecutionStatus.OVERRIDDEN):
            self.upkeep.end_if_abandoned(execution)  # never answer "assessed" for a run nobody will start
        return self.report(execution.id)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


__all__ = ["ExecutionCommands", "RETRYABLE_ENDS", "RunSettings", "ServiceMode"]
