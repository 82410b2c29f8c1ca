"""The application Mai calls, ``MaiSafety``: its commands (assess, run, approve, deny, cancel, the
sweep and recovery), with its queries mixed in from application.queries and its token commands
from application.access.

A command loads an execution, calls one of its command methods, saves, and returns a report;
the sizing of a run lives in application.sizing, its supervision and the recovery of lost runs
in application.supervision, the audit of the ledger in application.verification.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from threading import Lock
from typing import Any, cast
from uuid import UUID, uuid5

from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError, PersistenceError

from mai_safety.domain.access import Action, check_acting_principal_may, check_acting_principal_may_claim, NobodyAnswers, RolesDecide, principal_context
from mai_safety.domain.assessment import Submission
from mai_safety.domain.execution import Execution, ExecutionStatus, actor_context
from mai_safety.domain.gate import AnswerTooLate
from mai_safety.domain.levels import Provenance, RiskLevel
from mai_safety.domain.errors import InvalidSubmission, InvalidTransition
from mai_safety.domain.files import InputFile, input_files
from mai_safety.domain.limits import HostBusy, RequestedLimits
from mai_safety.domain.network import NetworkMode
from mai_safety.domain.output import DEFAULT_INLINE_BYTES
from mai_safety.domain.payloads import CallerLabels

from .access import TokenCommands
from .files import FileQueries, assess_with_inputs, store_inputs
from .aside import run_aside
from .open_sets import OpenExecutions
from .policies import PolicyCommands, PolicyLoader
from .live import LiveOutput
from .errors import ExecutionLeftOpen, ExecutionNotFound, IdempotencyConflict, LedgerUnavailable
from .ports import Assessor, BlobStore, PackageIndex, ProcessWorkLock, Sandbox, WorkLock
from .reports import AssessmentReport, ExecutionReport, report_for
from mai_safety.ledger.application.sealing import SEAL, Clock, LedgerPolicy, StartTimer, start_daemon_timer, utc_now
from .sizing import ExecutionPolicy, Sizer, Sizing
from .abandoned import InFlight, Leases, Liveness
from .open_sets import PENDING, open_holders
from .supervision import Sampling, Supervisor, end_not_started, recover_lost
from mai_safety.ledger.application.verification import LedgerAudit
from .queries import ExecutionQueries
from .watch import ExecutionWatch


#: Ends that mean the code never ran for want of the host (or of the process that was to start
#: it); the caller is told to try again, and a retry with the same key runs it afresh.
RETRYABLE_ENDS = frozenset({"host_busy", "sandbox_unavailable", "not_started"})


class MaiSafety(TokenCommands, ExecutionQueries, FileQueries, PolicyCommands, Application[UUID]):
    """Assess, gate, run and record AI-written code, on one ledger."""

    name = "MaiSafety"

    #: Service mode (``mai-safety serve``): the token's roles answer the gate, never
    #: ``policies/gate.yaml``'s names, and with no principal nobody does (docs/decisions/0016).
    roles_decide: bool = False
    #: Service mode: the output of the runs this process supervises, as it comes, for the event
    #: streams (application.live); None (the CLI) leaves the capture as it was.
    live: LiveOutput | None = None
    #: How long a supervisor keeps the outcome it saw while the ledger does not take it, and how
    #: often it tries again (application.supervision).
    keep_outcome_s: float = 60.0
    outcome_retry_s: float = 1.0
    #: Sessions (application.sessions): runs an answered cell in its session, not in a container of its own.
    session_cells: Callable[[Execution, str, str | None], ExecutionReport] | None = None

    def __init__(
        self,
        *,
        assessor: Assessor,
        sandbox: Sandbox,
        policy: ExecutionPolicy,
        env: dict[str, str] | None = None,
        ledger: LedgerPolicy | None = None,
        package_index: PackageIndex | None = None,
        ledger_stall_s: float = 10.0,
        blob_store: Callable[[Any], BlobStore | None] | None = None,
        work_lock: Callable[[Any], WorkLock] | None = None,
        clock: Clock = utc_now,
        sealing_timer: StartTimer = start_daemon_timer,
        policy_loader: PolicyLoader | None = None,
        shipped_policy: Callable[[], dict[str, str]] | None = None,
    ) -> None:
        """``blob_store`` makes the store for output kept out of events from the recorder this
        application made, so that both live in one database (docs/decisions/0014); without one,
        output stays inline in the ending event. ``clock`` tells the time of answers, deadlines
        and seals; ``sealing_timer`` starts the timers of deferred seals (application.sealing)."""
        super().__init__(env=env)
        self.assessor = assessor
        self.sandbox = sandbox
        self.policy = policy
        #: Policies as recorded configuration (application.policies): the shipped folder is version 0,
        #: read only when a command asks for it (not at every start).
        self.policy_loader = policy_loader
        self.read_shipped_policy = shipped_policy or dict
        self._policy_lock = Lock()
        self.package_index = package_index
        self.blobs = blob_store(self.recorder) if blob_store is not None else None
        #: Recovery and the sweep run in one process at a time per ledger (two servers on one Postgres).
        self.work_lock = work_lock(self.recorder) if work_lock is not None else ProcessWorkLock()
        self.inline_output_bytes = ledger.inline_output_bytes if ledger is not None else DEFAULT_INLINE_BYTES
        self.clock = clock
        self.audit = LedgerAudit(self.recorder, self.mapper, ledger, blobs=self.blobs, clock=clock, start_timer=sealing_timer)
        self.ledger_stall_s = ledger_stall_s
        # Every execution ends (application.abandoned): what this process moves on now, and who
        # is gone. The index keeps, beside each execution it opens, who opened it: this process.
        self.in_flight = InFlight()
        if isinstance(self.recorder, OpenExecutions):
            self.recorder.holder = sandbox.supervisor_id
        self.liveness = Liveness(
            lambda: sandbox.supervisor_id, sandbox.is_orphaned, self.recorder if isinstance(self.recorder, Leases) else None,
            self.in_flight,
        )

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        # An execution that has ended is sealed by a signed checkpoint, so every finished execution
        # is covered by a signature: in the same transaction as its last event, or (the policy's
        # ``endings_within``) by one checkpoint for all the endings of a short interval
        # (docs/decisions/0007, 0009).
        ending = any(isinstance(obj, Execution) and obj.status.is_final for obj in objs)
        if ending and self.audit.seals_endings_at_once:
            kwargs.setdefault(SEAL, True)
        recordings = super().save(*objs, **kwargs)
        if ending and recordings:
            self.audit.ending_saved(max(recording.notification.id for recording in recordings))
        return recordings

    # --- commands -------------------------------------------------------------------------

    def assess(
        self, code: bytes, *, provenance: Provenance = Provenance.MAI, source: str = "the code"
    ) -> AssessmentReport:
        """The verdict alone: nothing is recorded and nothing runs."""
        check_acting_principal_may(Action.ASSESS)
        check_acting_principal_may_claim(provenance)
        self.follow_policy()  # judged by the version in force now, as a submission is
        submission = Submission.from_bytes(code, provenance, self.policy.max_code_bytes, source)
        return report_for(submission, self.assessor.assess(submission))

    def run(
        self,
        code: bytes,
        *,
        provenance: Provenance = Provenance.MAI,
        requested: RequestedLimits = RequestedLimits(),
        source: str = "the code",
        confirm: bool = False,
        override: str | None = None,
        network: NetworkMode = NetworkMode.NONE,
        requirements: tuple[str, ...] | list[str] = (),
        caller: dict[str, str] | None = None,
        execution_id: UUID | None = None,
        revises: UUID | str | None = None,
        files: Mapping[str, bytes] | Sequence[tuple[str, bytes]] | None = None,
        image: str = "default",
    ) -> ExecutionReport:
        """Assess, record, and run if the gate allows; everything is checked before anything is stored.

        ``files``: name to bytes, placed in the run's working directory; names and sizes are
        checked against the policy (domain.files), a ``.py`` among them is judged with the code.
        ``image``: the sandbox image by name ("data"), as the policy grants the code's trust level.

        ``revises``: the execution this code revises (one the caller may read; else it does not
        exist): ``Assessed`` records a unified diff against its code.

        ``caller``: labels recorded on ``Assessed`` beside the principal (Mai's ``task_id`` and
        ``session_id``, the ``on_behalf_of`` end user), never used for a decision. ``execution_id``
        makes the submission idempotent: if that execution exists, its report is returned and
        nothing new is recorded (the same code is required).

        ``network=NetworkMode.DEPS`` gives the run a read-only egress to the allow-list, and installs
        ``requirements`` (with any ``# requirements:`` lines at the top of the code) before it starts.

        HIGH code runs at once only with ``confirm``; BLOCKED code only with ``override`` (a written
        explanation) from an actor the policy allows. Otherwise the execution waits for ``approve``.
        """
        check_acting_principal_may(Action.SUBMIT)
        check_acting_principal_may_claim(provenance)  # provenance is a claim: what it earns is granted
        self.follow_policy()
        submission = Submission.from_bytes(code, provenance, self.policy.max_code_bytes, source)
        inputs = input_files(files or {}, self.policy.files)
        revised = self._visible(self._get(revises)) if revises is not None else None
        if execution_id is not None:
            execution_id = self.submission_id(execution_id)
            existing = self._submitted_already(execution_id, submission)
            if existing is not None:
                return existing
        try:
            return self._assess_and_run(
                submission, provenance, requested, confirm, override, network, requirements, caller, execution_id, revised,
                inputs, image,
            )
        except IntegrityError:
            # Another request with the same id recorded it first: answer with that one.
            existing = self._submitted_already(execution_id, submission) if execution_id is not None else None
            if existing is None:
                raise
            return existing

    def _assess_and_run(
        self,
        submission: Submission,
        provenance: Provenance,
        requested: RequestedLimits,
        confirm: bool,
        override: str | None,
        network: NetworkMode,
        requirements: tuple[str, ...] | list[str],
        caller: dict[str, str] | None,
        execution_id: UUID | None,
        revised: Execution | None = None,
        inputs: tuple[InputFile, ...] = (),
        image: str = "default",
    ) -> ExecutionReport:
        policy, assessor = self.policy, self.assessor  # one version judges and sizes it, whatever is applied meanwhile
        # Whether the sandbox answers is asked while the code is assessed; it is waited for only
        # if the verdict lets the code run now.
        sandbox_answers = run_aside(self.sandbox.check_available)
        assessment = assess_with_inputs(assessor, submission, inputs, policy.max_code_bytes)
        sizing = Sizer(policy, self.package_index).size(
            provenance, assessment.level, assessment.complexity, requested,
            network=network, requirements=requirements, code=submission.code, image=image,
        )
        execution = Execution.assess(
            submission, assessment, caller=self._caller(caller), execution_id=execution_id,
            policy_version=policy.version, revises=revised,
            files_in=store_inputs(self.blobs, inputs),  # the blobs first: no event names one that is not there
        )
        if assessment.decision.may_run_now:
            self._save_and_run(execution, sizing, sandbox_answers.result)  # Assessed is stored before anything starts
            return self.report(execution.id)
        needs = "a written override" if assessment.level is RiskLevel.BLOCKED else "the user's confirmation"
        execution.request_override(
            f"{assessment.level.value} code needs {needs}",
            policy.rules.answer_by(self.clock()),
            sizing.request(provenance, requested),
        )
        answer = override if assessment.level is RiskLevel.BLOCKED else ("confirmed" if confirm else None)
        if answer is None:
            self.save(execution)
            return self.report(execution.id)
        # Answered up front: checked in full before the request and the answer are stored together.
        execution.override(answer, self._authority(execution), actor_context.get(), self.clock())
        self._save_and_run(execution, sizing)
        return self.report(execution.id)

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
        execution = self._visible(self._get(execution_id))
        self._check_answerable(execution, kind)
        if self.session_cells is not None and execution.caller.get("sandbox_session"):
            return self.session_cells(execution, explanation, on_behalf_of)  # runs in its session (application.sessions)
        sizing = self._sizing_of_answer(execution, requested, network, requirements)
        execution.override(explanation, self._authority(execution), actor_context.get(), self.clock(), on_behalf_of=on_behalf_of)
        self._save_and_run(execution, sizing)
        return self.report(execution.id)

    def _check_answerable(self, execution: Execution, kind: str | None) -> None:
        """The answer is of the kind the execution waits for, and in time: one that comes too late
        ends the execution unrun (recorded) and is refused."""
        if kind is not None and execution.override_kind is not None and execution.override_kind.value != kind:
            needs = "an override (BLOCKED code)" if execution.override_kind.value == "override" else "a confirmation (HIGH code)"
            raise InvalidTransition(f"execution {execution.id} waits for {needs}, not a {kind}")
        if execution.is_overdue(self.clock()):
            execution.expire(self.clock())
            self.save(execution)
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
        if execution.request is None:
            return self._sizer().size(
                execution.provenance, execution.level, execution.complexity, requested or RequestedLimits(),
                network=network or NetworkMode.NONE, requirements=requirements or (), code=execution.code,
            )
        if requested is not None or network is not None or requirements is not None:
            raise InvalidSubmission(
                f"execution {execution.id} runs the limits and network it asked for when it was submitted; "
                "an answer cannot change them: deny it and submit the code again with the ones you want"
            )
        return self._sizer().as_recorded(execution.id, execution.level, execution.complexity, execution.code, execution.request)

    def deny(self, execution_id: UUID | str, reason: str = "") -> ExecutionReport:
        execution = self._visible(self._get(execution_id))
        execution.deny(reason, self._authority(execution), actor_context.get())
        self.save(execution)
        return self.report(execution.id)

    def cancel(self, execution_id: UUID | str) -> ExecutionReport:
        """Stop a waiting or running execution; recorded as Terminated (cancelled) with the actor.

        The end is recorded first, then the container is killed: the supervisor, in this process or
        another, finds the execution ended when it next writes, and stops."""
        for _attempt in range(10):
            execution = self._visible(self._get(execution_id))
            principal = principal_context.get()
            if principal is not None:
                principal.check_may_cancel(self._submitted_by(execution))
            if execution.status.is_final:
                raise InvalidTransition(f"execution {execution.id} has already ended ({execution.status.value})")
            execution.terminate("cancelled", {"detail": f"cancelled by {actor_context.get()}"})
            try:
                self.save(execution)
                break
            except IntegrityError:
                continue  # the supervisor wrote meanwhile: read again and retry
        self.sandbox.remove_execution(str(execution.id))
        return self.report(execution.id)

    def expire_overdue(self) -> list[str]:
        """End every execution whose answer did not come in time, as Terminated (no_answer), without
        waiting for someone to answer it (the service's sweeper). Returns their ids. One process
        at a time sweeps a ledger: while another does, this one returns at once with none."""
        with self.work_lock.hold("sweep") as mine:
            return self._expire_overdue() if mine else []

    def sweep(self) -> list[str]:
        """The service's sweep, one process at a time per ledger: end overdue waits, and every
        execution whose holder is gone (a peer whose lease expired, a dead process of this host,
        a start this process gave up): pending ones as not_started, runs as supervisor_lost."""
        with self.work_lock.hold("sweep") as mine:
            return [*self._expire_overdue(), *self._end_abandoned(leftovers=False)] if mine else []

    def renew_lease(self) -> None:
        """This server's heartbeat on the ledger (application.abandoned)."""
        self.liveness.renew()

    def release_lease(self) -> None:
        self.liveness.release()

    def _end_abandoned(self, leftovers: bool = True) -> list[str]:
        """``leftovers``: also remove what dead supervisors left on this host (at a start; the
        periodic sweep leaves that to the next start, as before)."""
        ages = self.liveness.ages()

        def why_gone(execution_id: str, holder: str | None) -> str | None:
            return self.liveness.why_gone(execution_id, holder, ages)

        def why_unknown_gone(execution_id: str, execution: Execution) -> str | None:
            return self.liveness.why_unknown_gone(execution_id, execution.modified_on)

        # Runs first, with the containers whose supervisor is gone (one killed after making its
        # container and before recording Started is supervisor_lost, as before); then what never started.
        lost = recover_lost(self.sandbox, self.save, self._get, self.running_ids(), why_gone, leftovers=leftovers)
        pending = open_holders(self.recorder, PENDING)
        ended = end_not_started(self.save, self._get, pending, why_gone, why_unknown_gone, self.sandbox.remove_execution)
        for execution_id in (*lost, *ended):
            self.in_flight.forget(execution_id)
        self.in_flight.prune({str(each) for each in pending} | {str(each) for each in self.running_ids()})
        return [*lost, *ended]

    def _expire_overdue(self) -> list[str]:
        ended = []
        for execution_id in self.awaiting_ids():
            execution = self._get(execution_id)
            if not execution.is_overdue(self.clock()):
                continue
            execution.expire(self.clock())
            try:
                self.save(execution)
            except IntegrityError:
                continue  # answered or ended meanwhile
            ended.append(str(execution.id))
        return ended

    def end_unfinished(self, execution_id: UUID | str, reason: str, detail: str) -> bool:
        """End a waiting or running execution the service will no longer see to the end (it is
        stopping): recorded as Terminated with ``reason``, then its container is removed."""
        for _attempt in range(10):
            execution = self._get(execution_id)
            if execution.status.is_final:
                return False
            execution.terminate(reason, {"detail": detail})
            try:
                self.save(execution)
                break
            except IntegrityError:
                continue
        self.sandbox.remove_execution(str(execution_id))
        return True

    def recover(self, wait_s: float = 60.0) -> list[str]:
        """End every execution whose supervisor died mid-run: kill and remove its container and
        record Terminated (supervisor_lost); and seal the endings a stopped process left without
        their checkpoint, if what follows the newest checkpoint verifies. Returns their ids.

        One process at a time recovers a ledger: this one waits up to ``wait_s`` for another's
        recovery to end, then does its own (which finds what that one ended already ended)."""
        with self.work_lock.hold("recovery", wait_s) as mine:
            if not mine:
                return []
            return self._recover()

    def _recover(self) -> list[str]:
        self.audit.seal_left_behind()
        return self._end_abandoned()

    def _save_and_run(self, execution: Execution, sizing: Sizing, sandbox_answers: Callable[[], None] | None = None) -> None:
        """Once the sandbox answers (``sandbox_answers``: the answer asked already): record what
        was decided, then run it. Once that is recorded, the execution ends whatever fails: here,
        or (the ledger not answering) by recovery, with the cause kept here; and the caller is
        told which execution was left in which state (ExecutionLeftOpen)."""
        (sandbox_answers or self.sandbox.check_available)()
        key, recorded, cause = str(execution.id), execution.status.value, None
        self.in_flight.enter(key)
        try:
            try:
                self.save(execution)  # if this fails, nothing was recorded, as a rule
            except Exception as exc:
                # ... but a commit the database took may be reported failed: if so, nobody here starts it.
                cause = f"recording it failed ({type(exc).__name__}: {_first_line(exc)})"
                raise
            try:
                self._run(execution, sizing)
            except (LedgerUnavailable, PersistenceError) as exc:
                cause = f"the ledger failed: {_first_line(exc)}"
                if isinstance(exc, IntegrityError):
                    # Another writer moved it on (a cancel), or a write the ledger took was
                    # reported failed and tried again: if it is still open, nobody here moves it on.
                    raise
                raise self._left_open(execution.id, recorded, cause) from exc
            except Exception as exc:
                # Most were said and recorded where they arose (host busy, no sandbox); if this
                # one was not, the execution is still open and this process has given it up.
                cause = f"this server gave it up ({type(exc).__name__}: {_first_line(exc)})"
                raise
        finally:
            self.in_flight.leave(key, cause)

    def _left_open(self, execution_id: UUID, recorded: str, cause: str) -> ExecutionLeftOpen:
        """End what is still pending now if the ledger takes it; either way, the error that names it."""
        try:
            execution = self._get(execution_id)
            if execution.status.value in ("assessed", "overridden"):
                execution.terminate("not_started", {"detail": f"recorded as {execution.status.value} and never started: {cause}"})
                self.save(execution)
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

    def _run(self, execution: Execution, sizing: Sizing) -> None:
        """Prepare, record Started, supervise and record the end (application.supervision)."""
        Supervisor(
            self.sandbox,
            self.save,
            self._get,
            sampling=Sampling(self.policy.sample_every_s, self.policy.sample_above),
            blobs=self.blobs,
            inline_output_bytes=self.inline_output_bytes,
            ledger_stall_s=self.ledger_stall_s,
            live=self.live,
            keep_outcome_s=self.keep_outcome_s,
            retry_s=self.outcome_retry_s,
        ).run(execution, sizing)

    def _sizer(self) -> Sizer:
        """Sizes under the policy in force now (a test may change it between question and answer)."""
        return Sizer(self.policy, self.package_index)

    def remove_leftovers(self) -> int:
        return self.sandbox.remove_leftovers()

    def close(self) -> None:
        try:
            self.audit.close()  # seals the endings still owed a checkpoint
        finally:
            self.assessor.close()
            self.sandbox.close()
            super().close()

    # --- queries (more in application.queries) -------------------------------------------

    def watch(self, execution_id: UUID | str) -> ExecutionWatch:
        """Follow an execution as it goes (the service's event stream): its recorded events as
        they are written, and, while this process runs it, its output as it comes. Visible as the
        execution itself is (ExecutionNotFound otherwise); nothing is recorded."""
        execution = self._visible(self._get(execution_id))
        return ExecutionWatch(
            self, execution.id, principal_context.get(), status=lambda: self._get(execution.id).status.value
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
            return RolesDecide(principal, self._submitted_by(execution))
        return NobodyAnswers() if self.roles_decide else self.policy.rules

    def submission_id(self, execution_id: UUID) -> UUID:
        """The execution an idempotent submission names: ``execution_id`` itself, unless that
        attempt ended unrun for want of the host (no room, no Docker: the caller was told to try
        again), then the next attempt derived from it. A retry with the same key thus runs once."""
        candidate = execution_id
        for attempt in range(1, 1000):
            try:
                execution = self._get(candidate)
            except ExecutionNotFound:
                return candidate
            if execution.status in (ExecutionStatus.ASSESSED, ExecutionStatus.OVERRIDDEN):
                execution = self._end_if_abandoned(execution)
            if not (
                execution.status is ExecutionStatus.REJECTED
                and execution.outcome.get("termination_reason") in RETRYABLE_ENDS
            ):
                return candidate
            candidate = uuid5(execution_id, f"attempt {attempt}")
        raise HostBusy(f"execution {execution_id} was refused for want of room 1000 times: use a new Idempotency-Key")

    def _end_if_abandoned(self, execution: Execution) -> Execution:
        """A retry finds its execution recorded and never started: if nobody will start it, end
        it unrun (not_started) now, so that the retry runs the code afresh."""
        holder = open_holders(self.recorder, PENDING).get(execution.id)
        ages = self.liveness.ages()
        why = (
            self.liveness.why_gone(str(execution.id), holder, ages)
            if holder
            else self.liveness.why_unknown_gone(str(execution.id), execution.modified_on)
        )
        if why is None:
            return execution
        execution.terminate("not_started", {"detail": f"recorded as {execution.status.value} and never started: {why}"})
        try:
            self.save(execution)
        except IntegrityError:
            pass  # moved on meanwhile: read it again
        self.in_flight.forget(str(execution.id))
        return self._get(execution.id)

    def _submitted_already(self, execution_id: UUID, submission: Submission) -> ExecutionReport | None:
        try:
            execution = self._get(execution_id)
        except ExecutionNotFound:
            return None
        if execution.code_sha256 != submission.sha256:
            raise IdempotencyConflict(
                f"this Idempotency-Key already names execution {execution.id}, of other code: use a new key for new code"
            )
        if execution.status in (ExecutionStatus.ASSESSED, ExecutionStatus.OVERRIDDEN):
            self._end_if_abandoned(execution)  # never answer "assessed" for a run nobody will start
        return self.report(execution.id)



def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


__all__ = ["MaiSafety"]
