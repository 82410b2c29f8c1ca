"""The application Mai calls: assess, gate, run, record; and the queries over what was recorded."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from typing import Any, TextIO, cast
from uuid import UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError

from mai_safety.domain.access import Action, NobodyAnswers, Principal, RolesDecide, principal_context
from mai_safety.domain.assessment import Submission
from mai_safety.domain.execution import Execution, ExecutionStatus, actor_context
from mai_safety.domain.gate import AnswerTooLate, GateRules
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.domain.errors import DomainError, InvalidSubmission, InvalidTransition, LimitOutOfPolicy
from mai_safety.domain.limits import (
    ComplexityScale,
    HostBusy,
    LimitProfile,
    RequestedLimits,
    ResourceLimits,
    TrustRule,
    fit_limits,
    trust_for,
)
from mai_safety.domain.network import (
    EgressPolicy,
    KnownThreats,
    NetworkMode,
    NetworkNotAllowed,
    NetworkRequest,
    check_runtime_for_network,
    requirements_in_header,
)
from mai_safety.domain.run_request import RequestNoLongerGranted, RunRequest
from mai_safety.domain.output import DEFAULT_INLINE_BYTES
from mai_safety.domain.payloads import CallerLabels, OutcomeRecord, SizingRecord, UsageRecord
from mai_safety.domain.supervision import SampleThinner, Usage

from .access import TokenCommands
from .assessing import assess_code
from .audit import SEAL, LedgerAudit, LedgerPolicy
from .blobs import keep_output, with_full_output
from .live import LiveOutput, OutputWatcher
from .open_sets import AWAITING, RUNNING, OpenExecutions, OpenSet, scan_open_ids
from .errors import ConfigurationError, ExecutionNotFound, IdempotencyConflict, LedgerUnavailable, SandboxUnavailable
from .ports import Assessor, BlobStore, PackageIndex, PreparedRun, ProcessWorkLock, Sandbox, WorkLock
from .reports import AssessmentReport, ExecutionReport, VerificationReport
from .sample_writer import SampleWriter


#: Ends that mean the code never ran for want of the host; the caller is told to try again.
RETRYABLE_ENDS = frozenset({"host_busy", "sandbox_unavailable"})


@dataclass(frozen=True)
class GatePolicy:
    """What the application needs to know of the policies to gate, size and watch a run."""

    profiles: dict[TrustLevel, LimitProfile | ResourceLimits]
    trust_rules: tuple[TrustRule, ...]
    max_code_bytes: int
    rules: GateRules = GateRules(confirmers=("*",), overriders=(), answer_within=timedelta(hours=1))
    complexity: ComplexityScale = ComplexityScale({"lines": 400})
    sample_every_s: float = 1.0
    sample_above: float = 0.8
    egress: EgressPolicy = EgressPolicy(allow=())
    derive_allow_from_index: bool = True
    threats: KnownThreats = KnownThreats()
    runtimes: dict[TrustLevel, str] = field(default_factory=dict)  # runc | runsc | auto; runc if absent

    def profile(self, trust: TrustLevel) -> LimitProfile:
        profile = self.profiles[trust]
        return profile if isinstance(profile, LimitProfile) else LimitProfile.fixed(profile)


@dataclass(frozen=True)
class Sizing:
    """The limits a run asks the sandbox for, the least it can run with, its network, and why."""

    trust: TrustLevel
    limits: ResourceLimits
    floor: ResourceLimits
    why: SizingRecord
    network: NetworkRequest = NetworkRequest()
    runtime: str = "runc"  # runc | runsc | auto, as the trust level's profile says


class MaiSafety(TokenCommands, Application[UUID]):
    name = "MaiSafety"

    #: Service mode (``mai-safety serve``): the token's roles answer the gate, never
    #: ``policies/gate.yaml``'s names, and with no principal nobody does (docs/decisions/0016).
    roles_decide: bool = False
    #: Service mode: the output of the runs this process supervises, as it comes, for the event
    #: streams (application.live); None (the CLI) leaves the capture as it was.
    live: LiveOutput | None = None

    def __init__(
        self,
        *,
        assessor: Assessor,
        sandbox: Sandbox,
        gate: GatePolicy,
        env: dict[str, str] | None = None,
        ledger: LedgerPolicy | None = None,
        package_index: PackageIndex | None = None,
        ledger_stall_s: float = 10.0,
        blob_store: Callable[[Any], BlobStore | None] | None = None,
        work_lock: Callable[[Any], WorkLock] | None = None,
    ) -> None:
        """``blob_store`` makes the store for output kept out of events from the recorder this
        application made, so that both live in one database (docs/decisions/0014); without one,
        output stays inline in the ending event."""
        super().__init__(env=env)
        self.assessor = assessor
        self.sandbox = sandbox
        self.gate = gate
        self.package_index = package_index
        self.blobs = blob_store(self.recorder) if blob_store is not None else None
        #: Recovery and the sweep run in one process at a time per ledger (two servers on one Postgres).
        self.work_lock = work_lock(self.recorder) if work_lock is not None else ProcessWorkLock()
        self.inline_output_bytes = ledger.inline_output_bytes if ledger is not None else DEFAULT_INLINE_BYTES
        self.audit = LedgerAudit(self.recorder, self.mapper, ledger, blobs=self.blobs)
        self.ledger_stall_s = ledger_stall_s

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
        self._check_principal_may(Action.ASSESS)
        return assess_code(
            self.assessor, code, provenance=provenance, max_code_bytes=self.gate.max_code_bytes, source=source
        )

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
    ) -> ExecutionReport:
        """Assess, record, and run if the gate allows; everything is checked before anything is stored.

        ``caller``: labels recorded on ``Assessed`` beside the principal (Mai's ``task_id`` and
        ``session_id``, the ``on_behalf_of`` end user), never used for a decision. ``execution_id``
        makes the submission idempotent: if that execution exists, its report is returned and
        nothing new is recorded (the same code is required).

        ``network=NetworkMode.DEPS`` gives the run a read-only egress to the allow-list, and installs
        ``requirements`` (with any ``# requirements:`` lines at the top of the code) before it starts.

        HIGH code runs at once only with ``confirm``; BLOCKED code only with ``override`` (a written
        explanation) from an actor the policy allows. Otherwise the execution waits for ``approve``.
        """
        self._check_principal_may(Action.SUBMIT)
        submission = Submission.from_bytes(code, provenance, self.gate.max_code_bytes, source)
        if execution_id is not None:
            execution_id = self.submission_id(execution_id)
            existing = self._submitted_already(execution_id, submission)
            if existing is not None:
                return existing
        try:
            return self._assess_and_run(
                submission, provenance, requested, confirm, override, network, requirements, caller, execution_id
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
    ) -> ExecutionReport:
        assessment = self.assessor.assess(submission)
        sizing = self._size(provenance, assessment.level, assessment.complexity, requested)
        sizing = replace(sizing, network=self._network(network, list(requirements), submission.code, sizing))
        execution = Execution.assess(submission, assessment, caller=self._caller(caller), execution_id=execution_id)
        if assessment.decision.may_run_now:
            self.sandbox.check_available()
            self.save(execution)  # Assessed is stored before anything starts
            self._run(execution, sizing)
            return self.report(execution.id)
        needs = "a written override" if assessment.level is RiskLevel.BLOCKED else "the user's confirmation"
        execution.request_override(
            f"{assessment.level.value} code needs {needs}",
            self.gate.rules.answer_by(_now()),
            RunRequest(provenance, sizing.trust, requested, sizing.limits, sizing.network),
        )
        answer = override if assessment.level is RiskLevel.BLOCKED else ("confirmed" if confirm else None)
        if answer is None:
            self.save(execution)
            return self.report(execution.id)
        # Answered up front: checked in full before the request and the answer are stored together.
        execution.override(answer, self._authority(execution), actor_context.get(), _now())
        self.sandbox.check_available()
        self.save(execution)
        self._run(execution, sizing)
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
        if kind is not None and execution.override_kind is not None and execution.override_kind.value != kind:
            needs = "an override (BLOCKED code)" if execution.override_kind.value == "override" else "a confirmation (HIGH code)"
            raise InvalidTransition(f"execution {execution.id} waits for {needs}, not a {kind}")
        if execution.is_overdue(_now()):
            execution.expire(_now())
            self.save(execution)
            raise AnswerTooLate(
                f"execution {execution.id} waited for an answer until {execution.answer_by:%Y-%m-%d %H:%M:%S %Z}; "
                "it has now ended unrun (no_answer): submit the code again"
            )
        if execution.request is None:  # waiting since before requests were kept: as it was then
            sizing = self._size(execution.provenance, execution.level, execution.complexity, requested or RequestedLimits())
            wanted = list(requirements or ())
            sizing = replace(sizing, network=self._network(network or NetworkMode.NONE, wanted, execution.code, sizing))
        else:
            if requested is not None or network is not None or requirements is not None:
                raise InvalidSubmission(
                    f"execution {execution.id} runs the limits and network it asked for when it was submitted; "
                    "an answer cannot change them: deny it and submit the code again with the ones you want"
                )
            sizing = self._size_as_recorded(execution, execution.request)
        execution.override(explanation, self._authority(execution), actor_context.get(), _now(), on_behalf_of=on_behalf_of)
        self.sandbox.check_available()
        self.save(execution)
        self._run(execution, sizing)
        return self.report(execution.id)

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

    def _expire_overdue(self) -> list[str]:
        ended = []
        for execution_id in self._awaiting_ids():
            execution = self._get(execution_id)
            if not execution.is_overdue(_now()):
                continue
            execution.expire(_now())
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

    def status(self) -> dict[str, Any]:
        """What answers and what does not: the sandbox's engine, the ledger, the runtimes."""
        docker: dict[str, Any] = {"ok": True}
        try:
            self.sandbox.check_available()
        except SandboxUnavailable as exc:
            docker = {"ok": False, "detail": exc.message}
        ledger: dict[str, Any] = {"ok": True}
        try:
            ledger["head_position"] = self.recorder.max_notification_id() or 0
        except Exception as exc:  # noqa: BLE001 - any failure of the store is "does not answer"
            ledger = {"ok": False, "detail": f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"}
        return {
            "ok": docker["ok"] and ledger["ok"],
            "docker": docker,
            "ledger": ledger,
            "runtimes": self.sandbox.describe_runtimes() if docker["ok"] else {},
            "pool": self.sandbox.pool_status(),
        }

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
        lost = []
        # Those the index says are running, and any container of this ledger's whose supervisor
        # is gone (killed before Started was recorded; or missing from the index, which is not
        # the record: docs/decisions/0019).
        candidates = dict.fromkeys([*(str(each) for each in self._running_ids()), *self.sandbox.orphaned_executions()])
        for execution_id in candidates:
            try:
                execution = self._get(UUID(execution_id))
            except (ExecutionNotFound, ValueError):
                continue  # a container of another ledger's, or of a run refused before it was recorded
            if execution.status.is_final:
                continue
            if execution.status is ExecutionStatus.RUNNING:
                if not self.sandbox.is_orphaned(execution.supervisor or ""):
                    continue
                environment = self.sandbox.describe_execution(execution_id)
                outcome: OutcomeRecord = {"detail": f"supervisor {execution.supervisor} is gone", **cast(OutcomeRecord, environment)}
                if execution.samples:
                    outcome["last_sample"] = execution.samples[-1]
            else:
                outcome = {"detail": "the supervisor died after creating the container, before recording Started"}
            self.sandbox.remove_execution(execution_id)
            execution.terminate("supervisor_lost", outcome)
            try:
                self.save(execution)
            except IntegrityError:
                continue  # someone else recorded its end first
            lost.append(execution_id)
        self.sandbox.remove_leftovers()
        return lost

    def _size(
        self, provenance: Provenance, level: RiskLevel, complexity: dict[str, int], requested: RequestedLimits
    ) -> Sizing:
        trust = trust_for(self.gate.trust_rules, provenance, level)
        profile = self.gate.profile(trust)
        score = self.gate.complexity.score(complexity)
        limits = fit_limits(profile, requested, trust, score)
        floor = ResourceLimits(
            **{
                key: min(getattr(profile.minimum, key), getattr(limits, key))
                for key in limits.to_dict()
            }
        )
        why: SizingRecord = {
            "trust": trust.value,
            "provenance": provenance.value,
            "level": level.value,
            "complexity": dict(complexity),
            "complexity_score": score,
            "requested": requested.to_dict(),
            "profile": {"min": profile.minimum.to_dict(), "max": profile.maximum.to_dict()},
        }
        return Sizing(trust=trust, limits=limits, floor=floor, why=why, runtime=self.gate.runtimes.get(trust, "runc"))

    def _size_as_recorded(self, execution: Execution, request: RunRequest) -> Sizing:
        """The sizing of what ``execution`` asked for, if the policy in force still grants all of
        it; the host's room is applied later, by the sandbox, as for every run."""
        refusal: DomainError | None = None
        try:
            current = self._size(request.provenance, execution.level, execution.complexity, request.requested)
            granted = self._network(request.network.mode, list(request.network.requirements), execution.code, current)
            problems = request.not_granted_by(current.trust, self.gate.profile(current.trust).maximum, granted)
        except (LimitOutOfPolicy, NetworkNotAllowed, InvalidSubmission) as exc:
            problems, refusal = [exc.message], exc
        if problems:
            raise RequestNoLongerGranted(
                f"execution {execution.id} asked for what the policy in force no longer grants: {'; '.join(problems)}. "
                "Nothing ran: deny it and submit the code again",
                refusal=refusal,
            )
        minimum = self.gate.profile(current.trust).minimum
        floor = ResourceLimits(**{key: min(getattr(minimum, key), value) for key, value in request.limits.to_dict().items()})
        why: SizingRecord = {**current.why, "sized_when": "submitted (recorded on OverrideRequested)"}
        return Sizing(trust=request.trust, limits=request.limits, floor=floor, why=why, network=request.network, runtime=current.runtime)

    def _network(self, mode: NetworkMode, requirements: list[str], code: str, sizing: Sizing) -> NetworkRequest:
        """The network this run gets, with every entry checked before anything is recorded."""
        if mode is NetworkMode.NONE:
            if requirements:
                raise InvalidSubmission("requirements can only be installed with --network deps")
            return NetworkRequest()
        trust = sizing.trust
        egress = self.gate.egress
        egress.check_trust(trust)
        check_runtime_for_network(sizing.runtime, trust, wants_network=True)
        if self.package_index is None:
            raise ConfigurationError("no package index is configured for --network deps")
        wanted = [self.package_index.check_requirement(entry) for entry in requirements + requirements_in_header(code)]
        self.gate.threats.check_requirements(wanted)
        derived = self.package_index.hosts() if self.gate.derive_allow_from_index else ()
        return NetworkRequest(
            mode=NetworkMode.DEPS,
            allow=tuple(dict.fromkeys(egress.allow + derived)),
            http_ports=egress.http_ports,
            https_ports=egress.https_ports,
            max_bytes=egress.max_bytes,
            max_requests=egress.max_requests,
            index_urls=self.package_index.index_urls(),
            requirements=tuple(dict.fromkeys(wanted)),
        )

    def _run(self, execution: Execution, sizing: Sizing) -> None:
        try:
            prepared = self.sandbox.prepare(
                str(execution.id), execution.code, sizing.limits, sizing.floor, sizing.network, runtime=sizing.runtime
            )
        except (SandboxUnavailable, HostBusy) as exc:
            reason = "host_busy" if isinstance(exc, HostBusy) else "sandbox_unavailable"
            execution.terminate(reason, {"detail": exc.message})
            self.save(execution)
            raise
        try:
            execution.start(
                container_id=prepared.container_id,
                image=prepared.image,
                limits=prepared.limits,
                trust=sizing.trust,
                supervisor=self.sandbox.supervisor_id,
                sizing={**sizing.why, "host": prepared.host},
                network=sizing.network.to_dict(),
                runtime=prepared.runtime or {"name": sizing.runtime, "requested": sizing.runtime},
            )
            self.save(execution)
            self._supervise(execution, prepared)
        finally:
            self.sandbox.discard(prepared)

    def _supervise(self, execution: Execution, prepared: PreparedRun) -> None:
        current = [execution]  # replaced when another writer (a cancel) moved the execution on
        thinner = SampleThinner(self.gate.sample_every_s, self.gate.sample_above)
        reload = [False]

        def save_sample(sample: UsageRecord) -> bool:  # on the writer's thread, never the loop's
            if reload[0]:
                current[0] = self._get(current[0].id)
                reload[0] = False
                if current[0].status.is_final:
                    return False
            current[0].record_sample(sample)
            try:
                return self._save_unless_ended(current)
            except Exception:
                reload[0] = True  # what was pending is lost with the failed write: read it again
                raise

        writer = SampleWriter(save_sample, stall_s=self.ledger_stall_s)

        def observe(usage: Usage) -> bool:
            if not thinner.should_record(usage, prepared.limits):
                return not writer.ended_elsewhere.is_set()
            return writer.offer(usage.to_dict())

        live = self.live
        try:
            if live is None:
                outcome = self.sandbox.run(prepared, observe)
            else:
                try:
                    outcome = self.sandbox.run(prepared, observe, live.open(str(execution.id)))
                finally:
                    live.close(str(execution.id))
        except SandboxUnavailable as exc:
            if writer.close(self.ledger_stall_s) and not reload[0] and not current[0].status.is_final:
                current[0].terminate("sandbox_error", {"detail": exc.message})
                self._save_unless_ended(current)
            raise
        if not writer.close(self.ledger_stall_s):
            # The ledger still holds the writer: the run has ended, and recovery records it when
            # the ledger answers again.
            raise LedgerUnavailable(
                f"the ledger did not answer for {self.ledger_stall_s:g} s: the run was ended and is "
                "recorded at the next start (mai-safety recover) once the ledger answers"
            )
        if reload[0]:
            current[0] = self._get(current[0].id)
        if writer.stalled_out:
            outcome = replace(
                outcome,
                termination_reason="ledger_unavailable",
                detail=f"the ledger did not answer for {self.ledger_stall_s:g} s, so the run was ended",
            )
        if writer.dropped:
            outcome.observations["samples_dropped"] = writer.dropped
        # Long output goes to the blob store first, committed, then the ending names it.
        recorded = keep_output(outcome.to_dict(), self.blobs, self.inline_output_bytes)
        while not current[0].status.is_final:
            if outcome.termination_reason:
                current[0].terminate(outcome.termination_reason, recorded.copy())
            else:
                current[0].complete(recorded.copy())
            self._save_unless_ended(current)

    def _save_unless_ended(self, current: list[Execution]) -> bool:
        """Save; if another writer got there first, read the execution again. False once it has ended."""
        try:
            self.save(current[0])
        except IntegrityError:
            current[0] = self._get(current[0].id)
        return not current[0].status.is_final

    def _awaiting_ids(self) -> list[UUID]:
        """Executions asked to wait for an answer and neither answered nor ended."""
        return self._open_ids(AWAITING)

    def _running_ids(self) -> list[UUID]:
        """Executions with a Started event and no end."""
        return self._open_ids(RUNNING)

    def _open_ids(self, open_set: OpenSet) -> list[UUID]:
        """From the ledger's index of open executions, which costs what is open; a recorder
        without one is read through (docs/decisions/0019)."""
        if isinstance(self.recorder, OpenExecutions):
            return sorted(UUID(member) for member in self.recorder.open_ids(open_set))
        return sorted(scan_open_ids(self.recorder, open_set))

    def remove_leftovers(self) -> int:
        return self.sandbox.remove_leftovers()

    def close(self) -> None:
        try:
            self.audit.close()  # seals the endings still owed a checkpoint
        finally:
            self.assessor.close()
            self.sandbox.close()
            super().close()

    # --- queries --------------------------------------------------------------------------

    def report(self, execution_id: UUID | str) -> ExecutionReport:
        execution = self._visible(self._get(execution_id))
        outcome = with_full_output(execution.outcome, self.blobs)
        limits = execution.limits.to_dict() if execution.limits else None
        return ExecutionReport(
            execution_id=str(execution.id),
            level=execution.level.value,
            status=execution.status.value,
            decision=execution.decision.value,
            provenance=execution.provenance.value,
            code_sha256=execution.code_sha256,
            findings=[finding.to_dict() for finding in execution.findings],
            exit_code=outcome.get("exit_code"),
            stdout=outcome.get("stdout", ""),
            stderr=outcome.get("stderr", ""),
            termination_reason=outcome.get("termination_reason"),
            duration_s=outcome.get("duration_s"),
            output_truncated=bool(outcome.get("output_truncated", False)),
            trust=execution.trust.value if execution.trust else None,
            limits=limits,
            override_kind=execution.override_kind.value if execution.override_kind else None,
            answer_by=execution.answer_by.isoformat() if execution.answer_by else None,
            detail=outcome.get("detail", ""),
            submitted_by=execution.submitted_by,
            caller=execution.labels,
        )

    def history(self, execution_id: UUID | str, *, with_hashes: bool = False) -> list[dict[str, Any]]:
        """The execution's events in order, as plain data (output kept as a blob is read back whole);
        ``with_hashes``: each with its ledger position and both chain hashes (``chain``), as `audit
        verify` recomputes them."""
        execution = self._visible(self._get(execution_id))
        events = [_event_data(event, self.blobs) for event in self.repository.event_store.get(execution.id)]
        if with_hashes:
            hashes = self.audit.hashes_of(str(execution.id))
            for event in events:
                event["chain"] = hashes.get(event["version"])
        return events

    def watch(self, execution_id: UUID | str) -> ExecutionWatch:
        """Follow an execution as it goes (the service's event stream): its recorded events as
        they are written, and, while this process runs it, its output as it comes. Visible as the
        execution itself is (ExecutionNotFound otherwise); nothing is recorded."""
        execution = self._visible(self._get(execution_id))
        return ExecutionWatch(self, execution.id, principal_context.get())

    def verify(self) -> VerificationReport:
        """Both chains and every checkpoint, over the whole ledger (``self.audit`` for more)."""
        self._check_principal_may(Action.VERIFY)
        return self.audit.verify()

    def export(
        self, *, execution: str | None = None, from_position: int | None = None, to_position: int | None = None
    ) -> Callable[[TextIO], VerificationReport]:
        """The bundle ``mai-safety audit export`` writes, as a writer for ``out``: the caller's
        right and the scope are checked now, before anything is written (the head is sealed when
        the writer starts, as the CLI's export does)."""
        self._check_principal_may(Action.EXPORT)
        if execution is not None and (from_position is not None or to_position is not None):
            raise InvalidSubmission("an export of one execution chooses its own range: leave out from and to")
        if execution is not None:
            execution = str(self._get(execution).id)
        return lambda out: self.audit.export(out, execution=execution, from_position=from_position, to_position=to_position)

    # --- who acts (service mode: the token's principal; docs/decisions/0016) ---------------

    def _check_principal_may(self, action: Action) -> None:
        principal = principal_context.get()
        if principal is not None:
            principal.check_may(action)

    def _caller(self, labels: dict[str, str] | None) -> CallerLabels | None:
        principal = principal_context.get()
        recorded = {key: value for key, value in (labels or {}).items() if value}
        if principal is not None:
            recorded = {"principal": principal.name, **recorded}
        return cast(CallerLabels, recorded) if recorded else None  # the caller's labels: task_id, session_id, on_behalf_of

    def _submitted_by(self, execution: Execution) -> str | None:
        """The principal that submitted it; for one submitted without the service, its Assessed actor."""
        if execution.submitted_by is not None:
            return execution.submitted_by
        first = next(iter(self.repository.event_store.get(execution.id, lte=1)), None)
        return getattr(first, "actor", None)

    def _visible(self, execution: Execution) -> Execution:
        """A principal that may not see this execution is told it does not exist."""
        principal = principal_context.get()
        if principal is not None and not principal.may_see(self._submitted_by(execution)):
            raise ExecutionNotFound(f"no execution {execution.id} in this ledger: check the id")
        return execution

    def _authority(self, execution: Execution) -> Any:
        """Who may answer the gate: the roles in service mode, the policy's names in local mode."""
        principal = principal_context.get()
        if principal is not None:
            return RolesDecide(principal, self._submitted_by(execution))
        return NobodyAnswers() if self.roles_decide else self.gate.rules

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
            if not (
                execution.status is ExecutionStatus.REJECTED
                and execution.outcome.get("termination_reason") in RETRYABLE_ENDS
            ):
                return candidate
            candidate = uuid5(execution_id, f"attempt {attempt}")
        raise HostBusy(f"execution {execution_id} was refused for want of room 1000 times: use a new Idempotency-Key")

    def _submitted_already(self, execution_id: UUID, submission: Submission) -> ExecutionReport | None:
        try:
            execution = self._get(execution_id)
        except ExecutionNotFound:
            return None
        if execution.code_sha256 != submission.sha256:
            raise IdempotencyConflict(
                f"this Idempotency-Key already names execution {execution.id}, of other code: use a new key for new code"
            )
        return self.report(execution.id)

    # --- helpers --------------------------------------------------------------------------

    def _get(self, execution_id: UUID | str) -> Execution:
        try:
            execution = self.repository.get(self._uuid(execution_id))
        except AggregateNotFoundError:
            raise ExecutionNotFound(f"no execution {execution_id} in this ledger: check the id") from None
        if not isinstance(execution, Execution):  # another aggregate's id (a token's)
            raise ExecutionNotFound(f"no execution {execution_id} in this ledger: check the id")
        return execution

    @staticmethod
    def _uuid(execution_id: UUID | str) -> UUID:
        if isinstance(execution_id, UUID):
            return execution_id
        try:
            return UUID(execution_id)
        except ValueError:
            raise ExecutionNotFound(f"{execution_id!r} is not an execution id (a UUID)") from None


class ExecutionWatch:
    """What ``MaiSafety.watch`` hands out: reads of one execution, checked visible once."""

    #: The events after which nothing more is recorded for an execution.
    FINAL_EVENTS = frozenset({"Completed", "Terminated"})

    def __init__(self, app: MaiSafety, execution_id: UUID, principal: Principal | None) -> None:
        self._app = app
        self.execution_id = execution_id
        self._principal = principal
        self.output: OutputWatcher | None = app.live.watch(str(execution_id)) if app.live is not None else None

    def recorded_after(self, version: int, limit: int = 200) -> list[dict[str, Any]]:
        """The execution's events after ``version``, oldest first, as plain data (as ``history``,
        but output kept as a blob is not read back: the stream's end carries the report)."""
        events = self._app.repository.event_store.get(self.execution_id, gt=version, limit=limit)
        return [_event_data(event, None) for event in events]

    def token_active(self) -> bool:
        """Whether the token the watch was opened with still holds (always, outside the service)."""
        if self._principal is None or not self._principal.token_id:
            return True
        return self._app.token_active(self._principal.token_id)

    def status(self) -> str:
        """The status now, without reading its output back (a stream opening says only this)."""
        return self._app._get(self.execution_id).status.value

    def report(self) -> ExecutionReport:
        with acting_as(self._principal.name if self._principal else actor_context.get(), self._principal):
            return self._app.report(self.execution_id)

    def close(self) -> None:
        if self.output is not None:
            self.output.close()


def _now() -> datetime:
    return datetime.now(timezone.utc)


@contextmanager
def acting_as(actor: str, principal: Principal | None = None) -> Iterator[None]:
    """Stamp every event recorded inside the block with ``actor``; in service mode, ``principal``
    (the token's) is the actor and what the application checks roles against."""
    token = actor_context.set(principal.name if principal is not None else actor)
    principal_token = principal_context.set(principal)
    try:
        yield
    finally:
        principal_context.reset(principal_token)
        actor_context.reset(token)


def _event_data(event: Any, blobs: BlobStore | None) -> dict[str, Any]:
    data = {key: value for key, value in event.__dict__.items() if key not in ("originator_id",)}
    if isinstance(data.get("outcome"), dict):
        data["outcome"] = with_full_output(data["outcome"], blobs)
    timestamp = data.pop("timestamp")
    return {
        "event": type(event).__name__,
        "version": data.pop("originator_version"),
        "timestamp": timestamp.isoformat(),
        **{key: (str(value) if isinstance(value, UUID) else value) for key, value in data.items() if key != "originator_topic"},
    }


__all__ = ["ExecutionStatus", "GatePolicy", "MaiSafety", "acting_as"]
