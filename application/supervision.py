"""The supervisor of a running execution, and the recovery of executions whose supervisor died.

``Supervisor.ready`` prepares the sandbox and marks the run's start (recorded by the caller with
the decision, in one write); ``Supervisor.watch`` runs the code while the sandbox samples it
(each sample kept, thinned, and written from a thread of its own: application.sample_writer),
and records how it ended, even when another writer (a cancel) moved the execution on meanwhile,
and even when the ledger stops answering for a while (the outcome it saw is kept and written once
the ledger answers, within ``keep_outcome_s``).
``recover_lost`` ends the executions the index of running executions (application.open_sets) or
the sandbox's orphaned containers name, whose supervisor is gone.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, cast
from uuid import UUID

from eventsourcing.persistence import IntegrityError, PersistenceError

from mai_safety.domain.execution import Execution, ExecutionStatus
from mai_safety.domain.limits import HostBusy
from mai_safety.domain.payloads import OutcomeRecord, UsageRecord
from mai_safety.domain.supervision import SampleThinner, Usage

from mai_safety.ledger import keep_output
from .divergence import record_divergences
from .files import keep_outputs, read_inputs
from .errors import ExecutionNotFound, LedgerUnavailable, SandboxUnavailable, WriteContended
from .live import LiveOutput
from .ports import BlobStore, PreparedRun, RunOutcome, Sandbox
from .retry import retry_concurrent_writes
from .sample_writer import SampleWriter
from .sizing import Sizing

#: Saves an execution (raising IntegrityError when another writer got there first).
Save = Callable[[Execution], object]
#: Reads an execution again from the ledger.
Load = Callable[[UUID], Execution]


@dataclass(frozen=True)
class Sampling:
    """Which samples are recorded: one every ``every_s`` seconds, and any above ``above`` of a limit."""

    every_s: float = 1.0
    above: float = 0.8


@dataclass(frozen=True)
class Readiness:
    """What preparing a run gave: the sandbox ready for it (``prepared``), or the refusal that
    ended the execution unrun (``refused``); neither when its inputs could not be served."""

    prepared: PreparedRun | None = None
    refused: SandboxUnavailable | HostBusy | None = None


class Supervisor:
    """Sees one run through, from the sandbox's preparation to its recorded end."""

    def __init__(
        self,
        sandbox: Sandbox,
        save: Save,
        load: Load,
        *,
        sampling: Sampling = Sampling(),
        blobs: BlobStore | None = None,
        inline_output_bytes: int,
        ledger_stall_s: float = 10.0,
        live: LiveOutput | None = None,
        keep_outcome_s: float = 60.0,
        retry_s: float = 1.0,
        lookup: Callable[[Any], Any] | None = None,
    ) -> None:
        self.sandbox = sandbox
        #: Reads any aggregate by id (the floor of diverged code: application.divergence).
        self.lookup = lookup
        self.save = save
        self.load = load
        self.sampling = sampling
        self.blobs = blobs
        self.inline_output_bytes = inline_output_bytes
        self.ledger_stall_s = ledger_stall_s
        self.live = live
        #: How long after a run its observed outcome is kept while the ledger does not take it.
        self.keep_outcome_s = keep_outcome_s
        self.retry_s = retry_s

    def ready(self, execution: Execution, sizing: Sizing, engine_answers: Callable[[], None]) -> Readiness:
        """Prepare the sandbox and mark the run's start on ``execution``, which is not saved here:
        the caller records the decision and the start in one write, so that nothing is recorded of
        a run the sandbox could not take. A host without room, or a sandbox that refuses, ends the
        execution unrun instead (``refused``, raised once that end is recorded); an engine that
        does not answer at all (``engine_answers`` raises) is raised at once, with nothing ended."""
        workspace = workspace_of(execution, self.blobs)
        if workspace is None:
            return Readiness()  # its inputs cannot be served: ended unrun (inputs_unavailable)
        if sizing.image != "default":
            workspace["image"] = sizing.image  # a named image (domain.images): asked for only when not the default
        try:
            prepared = self.sandbox.prepare(
                str(execution.id), execution.code, sizing.limits, sizing.floor, sizing.network, runtime=sizing.runtime,
                **workspace,
            )
        except (SandboxUnavailable, HostBusy) as exc:
            if isinstance(exc, SandboxUnavailable):
                engine_answers()  # the engine itself is silent: a refusal of the moment, nothing to record
            reason = "host_busy" if isinstance(exc, HostBusy) else "sandbox_unavailable"
            execution.terminate(reason, {"detail": exc.message})
            return Readiness(refused=exc)
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
        return Readiness(prepared=prepared)

    def watch(self, execution: Execution, prepared: PreparedRun) -> Execution | None:
        """Run a recorded start to its recorded end (the sandbox is discarded after, whatever happens).
        Returns the execution as that end recorded it, which answers the caller without reading
        it again (~1.6 ms of a pooled run); None when what is held here may differ from the record
        (a write that failed after the end): then the record is read again."""
        try:
            watch = _Watch(self, execution, prepared)
            watch.through()
            return None if watch.reload else watch.current
        finally:
            self.sandbox.discard(prepared)

    def save_unless_ended(self, execution: Execution) -> Execution:
        """Save; if another writer got there first, the execution as read again."""
        try:
            self.save(execution)
        except IntegrityError:
            return self.load(execution.id)
        return execution


class _Watch:
    """One run under supervision: the execution as last known (replaced when another writer, a
    cancel, moved it on), the sample writer, and the thinner of samples."""

    def __init__(self, supervisor: Supervisor, execution: Execution, prepared: PreparedRun) -> None:
        self.supervisor = supervisor
        self.current = execution
        self.prepared = prepared
        self.thinner = SampleThinner(supervisor.sampling.every_s, supervisor.sampling.above)
        self.reload = False  # a failed write lost what was pending: read the execution again
        self.writer = SampleWriter(self.save_sample, stall_s=supervisor.ledger_stall_s)

    def save_sample(self, sample: UsageRecord) -> bool:
        """On the writer's thread, never the loop's. False once the execution has ended."""
        if self.reload:
            self.current = self.supervisor.load(self.current.id)
            self.reload = False
            if self.current.status.is_final:
                return False
        self.current.record_sample(sample)
        try:
            self.current = self.supervisor.save_unless_ended(self.current)
        except Exception:
            self.reload = True
            raise
        return not self.current.status.is_final

    def observe(self, usage: Usage) -> bool:
        """The sandbox's observer: whether the run may go on."""
        if not self.thinner.should_record(usage, self.prepared.limits):
            return not self.writer.ended_elsewhere.is_set()
        return self.writer.offer(usage.to_dict())

    def through(self) -> None:
        """Run the code to its end and record that end. The outcome it observed is kept while the
        ledger does not answer and written once it does, for up to ``keep_outcome_s`` after the
        run: a run is supervisor_lost only when nobody saw how it ended."""
        stall_s = self.supervisor.ledger_stall_s
        try:
            outcome = self._run_in_sandbox()
        except SandboxUnavailable as exc:
            if self.writer.close(stall_s) and not self.reload and not self.current.status.is_final:
                self.current.terminate("sandbox_error", {"detail": exc.message})
                self.supervisor.save_unless_ended(self.current)
            raise
        keep_s = max(stall_s, self.supervisor.keep_outcome_s)
        deadline = time.monotonic() + keep_s
        if not self.writer.close(keep_s):
            raise self._not_kept(outcome, keep_s)
        outcome = self._as_written(outcome)
        while True:
            try:
                if self.reload:
                    self.current = self.supervisor.load(self.current.id)
                    self.reload = False
                self._record_end(outcome)
                return
            except (LedgerUnavailable, PersistenceError) as exc:
                if isinstance(exc, IntegrityError):
                    raise
                self.reload = True  # what was pending is lost with the failed write: read it again
                if time.monotonic() + self.supervisor.retry_s >= deadline:
                    raise self._not_kept(outcome, keep_s) from exc
                time.sleep(self.supervisor.retry_s)

    def _not_kept(self, outcome: RunOutcome, keep_s: float) -> LedgerUnavailable:
        how = f"exit {outcome.exit_code}" if outcome.termination_reason is None else outcome.termination_reason
        return LedgerUnavailable(
            f"the run of execution {self.current.id} ended ({how}) but the ledger did not answer for {keep_s:g} s "
            "after it: it is ended by recovery once the ledger answers (mai-safety recover, or the service's sweep)"
        )

    def _run_in_sandbox(self) -> RunOutcome:
        sandbox, live, execution_id = self.supervisor.sandbox, self.supervisor.live, str(self.current.id)
        if live is None:
            return sandbox.run(self.prepared, self.observe)
        try:
            return sandbox.run(self.prepared, self.observe, live.open(execution_id))
        finally:
            live.close(execution_id)

    def _as_written(self, outcome: RunOutcome) -> RunOutcome:
        """The outcome, with what the ledger's stalls cost the run."""
        if self.writer.stalled_out:
            stall_s = self.supervisor.ledger_stall_s
            outcome = replace(
                outcome,
                termination_reason="ledger_unavailable",
                detail=f"the ledger did not answer for {stall_s:g} s, so the run was ended",
            )
        if self.writer.dropped:
            outcome.observations["samples_dropped"] = self.writer.dropped
        return outcome

    def _record_end(self, outcome: RunOutcome) -> None:
        # Long output goes to the blob store first, committed, then the ending names it.
        supervisor = self.supervisor
        recorded = keep_output(outcome.to_dict(), supervisor.blobs, supervisor.inline_output_bytes)
        if outcome.files_out:
            recorded["files_out"] = keep_outputs(supervisor.blobs, outcome.files_out)
        while not self.current.status.is_final:
            if outcome.termination_reason:
                self.current.terminate(outcome.termination_reason, recorded.copy(), outcome.observed)
            else:
                self.current.complete(recorded.copy(), outcome.observed)
            self.current = supervisor.save_unless_ended(self.current)
        if supervisor.lookup is not None and self.current.observed is not None:
            try:
                record_divergences(self.current, supervisor.save, supervisor.lookup)
            except PersistenceError:
                # The ending stands; its observed record keeps what a later look can judge again.
                self.reload = True  # the divergence held here was not recorded: not the record


def workspace_of(execution: Execution, blobs: BlobStore | None) -> dict[str, Any] | None:
    """What the sandbox is asked to place in the run's working directory: the recorded inputs,
    read back from their blobs (nothing when there are none; None, and the execution ended unrun,
    when one cannot be served as recorded)."""
    if not execution.files_in:
        return {}
    files, problem = read_inputs(blobs, execution.files_in)
    if problem:
        execution.terminate("inputs_unavailable", {"detail": problem})
        return None
    return {"files": files}


#: Why a holder (a supervisor id) will never move an execution on, or None while it may
#: (``Liveness.why_gone``, with the leases read once per pass).
WhyGone = Callable[[str, "str | None"], "str | None"]


def recover_lost(
    sandbox: Sandbox, save: Save, load: Load, running: Iterable[UUID], why_gone: WhyGone | None = None, *, leftovers: bool = True
) -> list[str]:
    """End every execution whose supervisor died mid-run: kill and remove its container and record
    Terminated (supervisor_lost). ``running``: those the index says are running; any container of
    this ledger's whose supervisor is gone is looked at too (killed before Started was recorded;
    or missing from the index, which is not the record: docs/decisions/0019). ``why_gone`` judges
    a supervisor (by default: a process of this host that no longer lives). ``leftovers``: also
    remove what dead supervisors left (pool containers, folders), as a start does. Returns their ids."""
    lost = []
    candidates = dict.fromkeys([*(str(each) for each in running), *sandbox.orphaned_executions()])
    for execution_id in candidates:
        try:
            ended = retry_concurrent_writes(
                partial(_end_lost, sandbox, save, load, execution_id, why_gone), f"the end of execution {execution_id}"
            )
        except WriteContended:
            continue  # others keep writing it: the next sweep looks again
        if ended:
            lost.append(execution_id)
    if leftovers:
        sandbox.remove_leftovers()
    return lost


def _end_lost(sandbox: Sandbox, save: Save, load: Load, execution_id: str, why_gone: WhyGone | None) -> bool:
    """Whether the execution was running under a supervisor that is gone, and is now recorded lost."""
    try:
        execution = load(UUID(execution_id))
    except (ExecutionNotFound, ValueError):
        return False  # a container of another ledger's, or of a run refused before it was recorded
    if execution.status.is_final:
        return False  # someone else recorded its end first
    if execution.status is ExecutionStatus.RUNNING:
        supervisor = execution.supervisor or ""
        if why_gone is not None:
            why = why_gone(execution_id, supervisor)
        else:
            why = f"its process {supervisor} is gone" if sandbox.is_orphaned(supervisor) else None
        if why is None:
            return False
        environment = sandbox.describe_execution(execution_id)
        outcome: OutcomeRecord = {
            "detail": f"supervisor {execution.supervisor} is gone: {why}", **cast(OutcomeRecord, environment)
        }
        if execution.samples:
            outcome["last_sample"] = execution.samples[-1]
    else:
        outcome = {"detail": "the supervisor died after creating the container, before recording Started"}
    sandbox.remove_execution(execution_id)
    execution.terminate("supervisor_lost", outcome)
    save(execution)
    return True


def end_not_started(
    save: Save,
    load: Load,
    pending: dict[UUID, str | None],
    why_gone: WhyGone,
    why_unknown_gone: Callable[[str, Execution], str | None],
    remove: Callable[[str], object] = lambda execution_id: 0,
) -> list[str]:
    """End every pending execution (recorded, on its way to start, waiting for nobody) whose
    holder is gone, as Terminated (not_started) with the cause: it never ran, and nobody will
    start it. ``pending``: the index's, each with its holder (None: unknown, then judged by
    ``why_unknown_gone``). ``remove`` removes whatever was made for it (a container made before
    Started was recorded). Returns their ids."""
    ended = []
    for execution_id, holder in pending.items():

        def end(execution_id: UUID = execution_id, holder: str | None = holder) -> bool:
            key = str(execution_id)
            why = why_gone(key, holder) if holder else None
            try:
                execution = load(execution_id)
            except ExecutionNotFound:
                return False
            if execution.status not in (ExecutionStatus.ASSESSED, ExecutionStatus.OVERRIDDEN):
                return False  # started, ended or waiting meanwhile: the index moves with the next append
            if not holder:
                why = why_unknown_gone(key, execution)
            if why is None:
                return False
            remove(key)
            execution.terminate("not_started", {"detail": f"recorded as {execution.status.value} and never started: {why}"})
            save(execution)
            return True

        try:
            if retry_concurrent_writes(end, f"the end of execution {execution_id}"):
                ended.append(str(execution_id))
        except WriteContended:
            continue  # others keep writing it: the next sweep looks again
    return ended


__all__ = ["Sampling", "Supervisor", "end_not_started", "recover_lost"]
