"""Sessions (issue #27, decision 0040): a live interpreter that keeps its state between cells,
every cell judged in the light of the ones before it.

``Sessions`` holds the commands (open, run a cell, end, answer a waiting cell) and the query
(describe) of the ``Session`` aggregate, on the same ledger as the executions: each cell is an
ordinary ``Execution`` (assessed, gated, started, ended) carrying the session's id in its caller
labels. The live interpreters this process holds are kept here, one per session; a session's
cells go to the process that holds it, and another answers with a clear error.

Ports: ``SessionSandbox`` makes a session's container and its interpreter (``LiveInterpreter``);
infrastructure.sandbox.sessions is the Docker one, tests.unit.fakes may give others.
"""

from __future__ import annotations

import hashlib
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import get_topic

from mai_safety.domain.access import Action, check_acting_principal_may, principal_context
from mai_safety.domain.assessment import Assessment, Submission
from mai_safety.domain.execution import Execution, actor_context
from mai_safety.domain.files import input_files
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.domain.limits import RequestedLimits, ResourceLimits, fit_limits
from mai_safety.domain.network import NetworkMode, NetworkNotAllowed
from mai_safety.domain.payloads import CallerLabels, OutcomeRecord
from mai_safety.domain.session import (
    SESSION_LABEL,
    EndReason,
    ManifestEntry,
    Session,
    SessionClosed,
    SessionLimits,
    SessionPolicy,
    SessionStatus,
    TooManySessions,
    judge_in_context,
)

from .errors import ExecutionNotFound, SandboxUnavailable
from .files import assess_with_inputs, keep_outputs, store_inputs
from .ports import Assessor, CellContext
from .reports import ExecutionReport


class SessionNotFound(ExecutionNotFound):
    """No session has that id, or the caller may not know it exists (HTTP 404)."""


class SessionNotHere(SessionClosed):
    """The session is open, but another server holds its interpreter (HTTP 409)."""


@dataclass(frozen=True)
class CellResult:
    """How one cell went: ``outcome`` completed (``status``: 0, or 1 if it raised), interrupted (at its
    wall clock, inside its interpreter, which lives on with its state; its output so far kept),
    timeout (past its wall clock, its interpreter ended from outside) or crashed (its interpreter
    ended); ``manifest``: the working directory after it; ``files_out``: the bytes of the files the
    cell created or changed, within the policy's bounds, and ``files_note`` how they were collected
    and what was left out (an ending's ``observations.files_out``, as a run's)."""

    outcome: str
    status: int | None
    stdout: str
    stderr: str
    truncated: bool
    duration_s: float
    manifest: list[ManifestEntry] | None
    detail: str
    files_out: tuple[tuple[str, bytes], ...] = ()
    files_note: dict[str, Any] | None = None


class LiveInterpreter(ABC):
    """A session's container and the interpreter in it. ``run_cell`` runs code in the interpreter's
    persistent namespace, in the session's working directory, within ``timeout_s`` of wall clock
    and ``cpu_s`` of CPU time; a cell past its wall clock ends the interpreter (the next cell or
    ``restart`` starts a new one). ``close`` removes the container and all it holds."""

    container_id: str
    image: str
    runtime: str

    @abstractmethod
    def run_cell(self, code: str, files: dict[str, bytes], timeout_s: float, cpu_s: float, max_output: int) -> CellResult: ...

    @abstractmethod
    def restart(self) -> None: ...

    @abstractmethod
    def alive(self) -> bool: ...

    @abstractmethod
    def close(self) -> None: ...

    def cpu_used_s(self) -> float | None:
        """The CPU time the session's container has used, read from outside the code (its cgroup);
        None if it cannot be read."""
        return None


class SessionSandbox(ABC):
    """Makes sessions' containers: each for one session alone, hardened as a run's, its keeper
    ending it at ``lifetime_s`` or when this process lets go of it. ``holder``: this process, as
    recorded on the session (``is_orphaned`` tells whether a holder is gone)."""

    holder: str

    @abstractmethod
    def open(
        self, session_id: str, image: str, limits: ResourceLimits, runtime: str, lifetime_s: float, total_cpu_s: float
    ) -> LiveInterpreter: ...

    @abstractmethod
    def is_orphaned(self, holder: str) -> bool: ...

    @abstractmethod
    def remove_session(self, session_id: str) -> int: ...


@dataclass
class _Held:
    session_id: UUID
    owner: str
    interpreter: LiveInterpreter
    lock: threading.Lock
    context: CellContext  # the cells that ran, as what the next cell is judged with
    asked_at: datetime  # when its container was asked for: its keeper's lifetime runs from after it


class Sessions:
    """The sessions' commands and query, over the application that records executions (``app``:
    its assessor, policy, blobs and ledger)."""

    def __init__(
        self, app: Any, sandbox: SessionSandbox, contexts: Callable[[], CellContext], policy: SessionPolicy | None = None,
        whole: Callable[[Assessor], Assessor] | None = None,
    ) -> None:
        """``contexts``: a new session's earlier cells (CellContext: which of their statements a cell
        is judged with); ``whole``: the assessor that judges a cell with them, made from the one in
        force (bootstrap: its AST analysis alone, which resolves names across statements; each
        cell alone is judged by the full assessor, its verdict kept by its hash)."""
        self.app = app
        self.sandbox = sandbox
        self._contexts = contexts
        self._fixed_policy = policy
        self._whole = whole or (lambda assessor: assessor)
        self._whole_of: tuple[Assessor, Assessor] | None = None
        self._held: dict[UUID, _Held] = {}
        self._lock = threading.Lock()
        app.commands.session_cells = self.answer  # an answered cell of a session runs in its session

    @property
    def policy(self) -> SessionPolicy:
        """The policy in force (limits.yaml ``sessions:`` of the version in force), unless one was given."""
        return self._fixed_policy or cast(SessionPolicy, self.app.policy.sessions)

    # --- commands -----------------------------------------------------------------------------

    def open(self, image: str = "default", limits: SessionLimits | None = None, network: NetworkMode = NetworkMode.NONE) -> UUID:
        """Open a session: its container and interpreter, then ``Opened`` on the ledger. A session's
        cells are untrusted code (it never gains trust), and untrusted code never gets a network
        (a hard rule of every policy, domain.hard_rules): ``deps`` is refused before anything is made."""
        check_acting_principal_may(Action.SUBMIT)
        if network is not NetworkMode.NONE:
            raise NetworkNotAllowed(
                f"a session has no network: its cells run as untrusted code (a session never gains trust), "
                f"and untrusted code never gets the {network.value} network; install nothing in a session, "
                "or run the step that needs the network as an execution of its own",
                trust=TrustLevel.UNTRUSTED.value, allowed_trust=tuple(level.value for level in self.app.policy.egress.trust_levels),
            )
        self.app.follow_policy()
        owner = _acting_name()
        session_limits = (limits or self.policy.limits).within(self.policy.limits)
        container_limits, runtime = self._container_limits()
        session_id = uuid4()
        with self._lock:
            self._check_room(owner)
            asked_at = self.app.clock()
            interpreter = self.sandbox.open(
                str(session_id), image, container_limits, runtime, session_limits.lifetime_s, session_limits.total_cpu_s
            )
            try:
                session = Session.open(
                    owner=owner, container_id=interpreter.container_id, holder=self.sandbox.holder, image=interpreter.image,
                    runtime=interpreter.runtime, network="none", trust=TrustLevel.UNTRUSTED.value,
                    limits=dict(container_limits.to_dict()), session_limits=session_limits, session_id=session_id,
                )
                self.app.save(session)
            except BaseException:
                interpreter.close()
                raise
            self._held[session_id] = _Held(session_id, owner, interpreter, threading.Lock(), self._contexts(), asked_at)
        return session_id

    def run(self, session_id: UUID | str, code: bytes, files: Mapping[str, bytes] | None = None) -> ExecutionReport:
        """Judge a cell with the session's earlier cells, record it as an Execution, and run it in
        the session's interpreter if the gate allows; a HIGH or BLOCKED cell waits for a person
        (the execution's confirm or override), and the session waits with it."""
        check_acting_principal_may(Action.SUBMIT)
        held = self._held_by_owner(session_id)
        # Waits out the sweep's look (it holds the lock a moment) and a cell already running.
        if not held.lock.acquire(timeout=self.policy.limits.cell_timeout_s + 5):
            raise SessionClosed(f"session {held.session_id} is running a cell: wait for its answer")
        try:
            session = self._settled(self._get(held.session_id))  # read once, under the lock its writers take
            session.check_may_add_cell()
            policy = self.app.policy
            submission = Submission.from_bytes(code, Provenance.MAI, policy.max_code_bytes, "the cell")
            inputs = input_files(files or {}, policy.files)
            verdict = self._judged(held, submission, assess_with_inputs(self.app.assessor, submission, inputs, policy.max_code_bytes))
            caller = cast(CallerLabels, {**({"principal": held.owner} if principal_context.get() else {}), SESSION_LABEL: str(session.id)})
            execution = Execution.assess(
                submission, verdict, caller=caller, policy_version=policy.version, files_in=store_inputs(self.app.blobs, inputs),
            )
            waits = not verdict.decision.may_run_now
            session.add_cell(execution.id, verdict.level, waits=waits)
            if waits:
                needs = "a written override" if verdict.level is RiskLevel.BLOCKED else "the user's confirmation"
                execution.request_override(
                    f"{verdict.level.value} cell of session {session.id} needs {needs}", policy.rules.answer_by(self.app.clock())
                )
                self.app.save(execution, session)
                return cast(ExecutionReport, self.app.report(execution.id))
            self._run_cell(held, session, execution, {item.name: item.data for item in inputs})
            return cast(ExecutionReport, self.app.report(execution.id))
        finally:
            held.lock.release()

    def answer(self, execution: Execution, explanation: str, on_behalf_of: str | None) -> ExecutionReport:
        """A person answered a waiting cell (MaiSafety.approve): record the answer and run the
        cell in its session, never in a container of its own."""
        session = self._get(str(execution.caller.get(SESSION_LABEL, "")))
        held = self._holding(session)
        with held.lock:
            execution.override(explanation, self.app.commands._authority(execution), actor_context.get(), self.app.clock(), on_behalf_of=on_behalf_of)
            self._run_cell(held, self._get(session.id), execution, {})
        return cast(ExecutionReport, self.app.report(execution.id))

    def end(self, session_id: UUID | str, reason: EndReason = EndReason.CALLER, detail: str = "") -> dict[str, Any]:
        """End a session (recorded first), then remove its container."""
        session = self._visible(self._get(session_id))
        principal = principal_context.get()
        if principal is not None and reason is EndReason.CALLER:
            principal.check_may_cancel(session.owner)
        held = self._held.get(session.id)
        if held is not None and not held.lock.acquire(timeout=session.session_limits.cell_timeout_s + 10):
            raise SessionClosed(f"session {session.id} is running a cell: try again once it has ended")
        try:
            self._end(session.id, reason, detail or f"ended by {actor_context.get()}")
        finally:
            if held is not None:
                held.lock.release()
        return self.describe(session.id)

    def sweep(self, now: datetime | None = None) -> list[str]:
        """End this process's sessions past their idle timeout or lifetime, or whose container is
        gone; settle cells whose wait ended without an answer. Returns the sessions ended."""
        ended = []
        now = now or self.app.clock()
        for held in list(self._held.values()):
            if not held.lock.acquire(blocking=False):
                continue  # a cell is running: not idle
            try:
                session = self._settled(self._get(held.session_id))
                reason = session.ends_for((now - session.modified_on).total_seconds(), (now - session.created_on).total_seconds())
                detail = f"{reason.value}: ended by the service's sweep" if reason is not None else ""
                over = session.past_limit(held.interpreter.cpu_used_s()) if reason is None else None
                if over is not None:
                    reason, detail = EndReason.LIMIT, f"limit: {over}"
                if reason is None and not held.interpreter.alive():
                    reason, detail = self._lost(held, session, "its container is gone")
                if reason is not None:
                    self._end(session.id, reason, detail)
                    ended.append(str(session.id))
            except IntegrityError:
                continue  # moved on meanwhile: the next sweep looks again
            finally:
                held.lock.release()
        return ended

    def end_all(self, reason: EndReason = EndReason.SERVICE_STOP) -> list[str]:
        """The service stops: every session it holds ends, recorded, and its container goes."""
        ended = []
        for held in list(self._held.values()):
            try:
                self._end(held.session_id, reason, "the service stopped")
                ended.append(str(held.session_id))
            except Exception:  # noqa: BLE001 - recovery ends what this could not
                held.interpreter.close()
        return ended

    def recover(self) -> list[str]:
        """At a start: end every open session whose holder is gone (its container with it)."""
        ended = []
        for session_id in self._open_on_ledger():
            session = self._get(session_id)
            if session.status is SessionStatus.ENDED or session.id in self._held or not self.sandbox.is_orphaned(session.holder):
                continue
            session.end(EndReason.RECOVERY, f"its server ({session.holder}) is gone; its container was removed")
            try:
                self.app.save(session)
            except IntegrityError:
                continue
            self.sandbox.remove_session(str(session.id))
            ended.append(str(session.id))
        return ended

    # --- query --------------------------------------------------------------------------------

    def describe(self, session_id: UUID | str) -> dict[str, Any]:
        session = self._settled(self._visible(self._get(session_id)))
        return {
            "session_id": str(session.id), "owner": session.owner, "status": session.status.value,
            "ended_reason": session.ended_reason, "ended_detail": session.ended_detail or None,
            "opened_at": session.created_on.isoformat(), "image": session.image, "runtime": session.runtime,
            "trust": session.trust, "network": session.network, "limits": session.limits,
            "session_limits": dict(session.session_limits.to_dict()),
            "cells": [{"execution_id": cell.execution_id, "level": cell.level, "status": cell.status} for cell in session.cells],
            "workspace": session.manifest, "workspace_listed_by": session.manifest_by, "restarts": list(session.restarts),
        }

    # --- helpers ------------------------------------------------------------------------------

    def _run_cell(self, held: _Held, session: Session, execution: Execution, files: dict[str, bytes]) -> None:
        """Record Started (and what is not yet saved of the cell and the session), run the cell,
        record its end and the working directory's manifest."""
        limits = ResourceLimits.from_dict(cast(Any, session.limits))
        interpreter = held.interpreter
        execution.start(
            container_id=interpreter.container_id, image=interpreter.image, limits=limits, trust=TrustLevel(session.trust),
            supervisor=self.sandbox.holder, runtime={"name": interpreter.runtime},
        )
        self.app.save(execution, session)  # recorded (with Assessed, for a cell that did not wait) before it runs
        bounds = session.session_limits
        timeout_s, cpu_s = min(bounds.cell_timeout_s, limits.timeout_s), min(bounds.cell_cpu_s, limits.cpu_seconds)
        result = interpreter.run_cell(execution.code, files, timeout_s, cpu_s, limits.output_bytes)
        manifest = result.manifest
        outcome = _outcome(result)
        if result.files_out:  # kept (committed) as blobs before the ending names them, as a run's outputs
            outcome["files_out"] = keep_outputs(self.app.blobs, result.files_out)
        if result.outcome == "completed":
            execution.complete(outcome)
        elif result.outcome == "interrupted":  # stopped at its wall clock, its interpreter alive with its state
            execution.terminate("timeout", outcome)
        else:
            execution.terminate("timeout" if result.outcome == "timeout" else "interpreter_crashed", outcome)
            over = session.past_limit(interpreter.cpu_used_s())
            if over is not None:  # not started again: the session is over
                session.cell_ended(execution.id, ran=True, manifest=session.manifest)
                session.end(EndReason.LIMIT, f"limit: {over}")
                self.app.save(execution, session)
                self._forget(session.id)
                self.sandbox.remove_session(str(session.id))
                return
            try:
                interpreter.restart()
                session.interpreter_restarted(result.detail, execution.id)
                manifest = interpreter.run_cell("", {}, timeout_s, cpu_s, 1024).manifest  # the files it left
            except SandboxUnavailable as exc:
                session.cell_ended(execution.id, ran=True, manifest=session.manifest)
                session.end(*self._lost(held, session, f"its interpreter could not be started again: {exc}"))
                self.app.save(execution, session)
                self._forget(session.id)
                return
        session.cell_ended(execution.id, ran=True, manifest=manifest if manifest is not None else session.manifest)
        self.app.save(execution, session)
        self._ran(held, execution.code)
        over = session.past_limit(interpreter.cpu_used_s())
        if over is not None:
            self._end(session.id, EndReason.LIMIT, f"limit: {over}")

    def _lost(self, held: _Held, session: Session, what: str) -> tuple[EndReason, str]:
        """Why a session whose container is gone ended: at its lifetime its keeper ends it (counted
        from after the container was asked for, so never before this side's count), else it was lost."""
        if (self.app.clock() - held.asked_at).total_seconds() >= session.session_limits.lifetime_s:
            return EndReason.LIFETIME, f"lifetime: its keeper ended its container at the session's lifetime ({what})"
        return EndReason.SANDBOX_LOST, what

    def _ran(self, held: _Held, code: str) -> None:
        """A cell ran: later cells are judged with what it did."""
        held.context.add(code, getattr(self._whole_assessor(), "acting_lines", lambda program: None))

    def _judged(self, held: _Held, submission: Submission, alone: Assessment) -> Assessment:
        """The cell's verdict in the light of the cells that ran before it: the statements it reaches."""
        earlier = held.context.earlier(submission.code)
        if not earlier.lines:
            return alone
        whole_code, first_line, line_count = earlier.program(submission.code)
        digest = hashlib.sha256(whole_code.encode("utf-8")).hexdigest()
        whole = self._whole_assessor().assess(Submission(code=whole_code, provenance=submission.provenance, sha256=digest))
        return judge_in_context(alone, whole, first_line, line_count, earlier.where)

    def _whole_assessor(self) -> Assessor:
        """The whole's assessor for the assessor in force (made again when a policy version changes it)."""
        current = self.app.assessor
        if self._whole_of is None or self._whole_of[0] is not current:
            self._whole_of = (current, self._whole(current))
        return self._whole_of[1]

    def _settled(self, session: Session) -> Session:
        """A waiting cell whose execution ended unrun (denied, unanswered, cancelled) ends in the
        session too, and the session takes cells again."""
        if session.status is not SessionStatus.WAITING:
            return session
        waiting = next(cell for cell in session.cells if cell.status == "waiting")
        execution = self.app._get(waiting.execution_id)
        if execution.status.is_final and execution.status.value == "rejected":
            session.cell_ended(waiting.execution_id, ran=False, manifest=session.manifest)
            try:
                self.app.save(session)
            except IntegrityError:
                return self._get(session.id)
        return session

    def _end(self, session_id: UUID, reason: EndReason, detail: str) -> None:
        session = self._get(session_id)
        if session.status is not SessionStatus.ENDED:
            session.end(reason, detail)
            self.app.save(session)
        self._forget(session_id)
        self.sandbox.remove_session(str(session_id))

    def _forget(self, session_id: UUID) -> None:
        held = self._held.pop(session_id, None)
        if held is not None:
            held.interpreter.close()

    def _holding(self, session: Session) -> _Held:
        if session.status is SessionStatus.ENDED:
            raise SessionClosed(f"session {session.id} has ended ({session.ended_reason}): open a new one")
        held = self._held.get(session.id)
        if held is None:
            raise SessionNotHere(
                f"session {session.id} is held by another server ({session.holder}): send its cells there"
            )
        return held

    def _held_by_owner(self, session_id: UUID | str) -> _Held:
        """This process's live session, if the acting principal opened it: known without reading
        the ledger; otherwise the ledger says why not (no such session, ended, held elsewhere)."""
        try:
            held = self._held.get(UUID(str(session_id)))
        except ValueError:
            held = None
        principal = principal_context.get()
        if held is None or (principal is not None and principal.name != held.owner):
            return self._holding(self._owned(session_id))
        return held

    def _owned(self, session_id: UUID | str) -> Session:
        """The session, if the acting principal opened it (others are told it does not exist)."""
        session = self._get(session_id)
        principal = principal_context.get()
        if principal is not None and principal.name != session.owner:
            raise SessionNotFound(f"no session {session_id} in this ledger: check the id")
        return session

    def _visible(self, session: Session) -> Session:
        principal = principal_context.get()
        if principal is not None and not principal.may_see(session.owner):
            raise SessionNotFound(f"no session {session.id} in this ledger: check the id")
        return session

    def _get(self, session_id: UUID | str) -> Session:
        try:
            session = self.app.repository.get(UUID(str(session_id)))
        except Exception:  # noqa: BLE001 - not an id, or not on the ledger: the same answer
            raise SessionNotFound(f"no session {session_id} in this ledger: check the id") from None
        if not isinstance(session, Session):
            raise SessionNotFound(f"no session {session_id} in this ledger: check the id")
        return session

    def _check_room(self, owner: str) -> None:
        mine = sum(1 for held in self._held.values() if held.owner == owner)
        if mine >= self.policy.per_principal:
            raise TooManySessions(f"{owner!r} has {mine} sessions open, the most one may: end one first")
        if len(self._held) >= self.policy.per_host:
            raise TooManySessions(f"this server holds {len(self._held)} sessions, the most it may: try again later")

    def _container_limits(self) -> tuple[ResourceLimits, str]:
        """The untrusted profile's most (docs/decisions/0040): a session never gains trust."""
        policy = self.app.policy
        limits = fit_limits(policy.profile(TrustLevel.UNTRUSTED), RequestedLimits(), TrustLevel.UNTRUSTED, 1.0)
        return limits, policy.runtimes.get(TrustLevel.UNTRUSTED, "runc")

    def _open_on_ledger(self) -> list[UUID]:
        """Sessions opened and not ended, from the ledger's notifications."""
        topics = [get_topic(Session.Opened), get_topic(Session.Ended)]
        opened: dict[UUID, bool] = {}
        start: int | None = None
        while True:
            notifications = self.app.recorder.select_notifications(start=start, limit=1000, topics=topics, inclusive_of_start=False)
            for notification in notifications:
                if notification.topic == topics[0]:
                    opened[notification.originator_id] = True
                else:
                    opened.pop(notification.originator_id, None)
            if len(notifications) < 1000:
                return list(opened)
            start = notifications[-1].id


def _acting_name() -> str:
    principal = principal_context.get()
    return principal.name if principal is not None else actor_context.get()


def _outcome(result: CellResult) -> OutcomeRecord:
    outcome: OutcomeRecord = {
        "exit_code": result.status, "stdout": result.stdout, "stderr": result.stderr,
        "output_bytes": len(result.stdout.encode()) + len(result.stderr.encode()), "output_truncated": result.truncated,
        "duration_s": round(result.duration_s, 6),
    }
    if result.detail:
        outcome["detail"] = result.detail
    if result.files_note is not None:
        outcome["observations"] = {"files_out": result.files_note}
    return outcome


__all__ = ["CellResult", "LiveInterpreter", "SessionNotFound", "SessionNotHere", "SessionPolicy", "SessionSandbox", "Sessions"]
