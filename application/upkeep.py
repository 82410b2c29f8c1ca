"""Every execution ends (application.abandoned): the service's upkeep of its ledger. The sweep ends
overdue waits and what nobody will move on; recovery, at a start, also ends the runs whose
supervisor died and seals the endings a stopped process left without their checkpoint; a stopping
service ends what it will no longer see to the end. One process at a time per ledger sweeps or
recovers (``WorkLock``)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from mai_safety.domain.execution import Execution
from mai_safety.ledger import Clock, LedgerAudit

from .abandoned import InFlight, Liveness
from .open_sets import AWAITING, PENDING, RUNNING, open_holders, open_ids
from .ports import Sandbox, WorkLock
from .retry import retry_concurrent_writes
from .store import ExecutionStore
from .supervision import end_not_started, recover_lost


class Upkeep:
    """Ends what nobody will move on, on the ledger of ``store`` and ``recorder`` (its index of
    open executions), with ``sandbox``'s containers; ``liveness`` judges holders, ``in_flight`` is
    what this process moves on now."""

    def __init__(
        self,
        store: ExecutionStore,
        recorder: Any,
        sandbox: Sandbox,
        audit: LedgerAudit,
        work_lock: WorkLock,
        liveness: Liveness,
        in_flight: InFlight,
        clock: Clock,
    ) -> None:
        self.store = store
        self.recorder = recorder
        self.sandbox = sandbox
        self.audit = audit
        self.work_lock = work_lock
        self.liveness = liveness
        self.in_flight = in_flight
        self.clock = clock

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

    def recover(self, wait_s: float = 60.0) -> list[str]:
        """End every execution whose supervisor died mid-run: kill and remove its container and
        record Terminated (supervisor_lost); and seal the endings a stopped process left without
        their checkpoint, if what follows the newest checkpoint verifies. Returns their ids.

        One process at a time recovers a ledger: this one waits up to ``wait_s`` for another's
        recovery to end, then does its own (which finds what that one ended already ended)."""
        with self.work_lock.hold("recovery", wait_s) as mine:
            if not mine:
                return []
            self.audit.seal_left_behind()
            return self._end_abandoned()

    def end_unfinished(self, execution_id: UUID | str, reason: str, detail: str) -> bool:
        """End a waiting or running execution the service will no longer see to the end (it is
        stopping): recorded as Terminated with ``reason``, then its container is removed. False if
        it had ended already; WriteContended if the end could not be recorded (the container is
        left for recovery, which records why)."""

        def end() -> bool:
            execution = self.store.get(execution_id)
            if execution.status.is_final:
                return False
            execution.terminate(reason, {"detail": detail})
            self.store.save(execution)
            return True

        if not retry_concurrent_writes(end, f"the end of execution {execution_id}"):
            return False
        self.sandbox.remove_execution(str(execution_id))
        return True

    def end_if_abandoned(self, execution: Execution) -> Execution:
        """A retry finds its execution recorded and never started: if nobody will start it, end
        it unrun (not_started) now, so that the retry runs the code afresh. The execution as it
        is now."""
        holder = open_holders(self.recorder, PENDING).get(execution.id)
        ages = self.liveness.ages()
        why = (
            self.liveness.why_gone(str(execution.id), holder, ages)
            if holder
            else self.liveness.why_unknown_gone(str(execution.id), execution.modified_on)
        )
        if why is None:
            return execution

        def end() -> None:
            latest = self.store.get(execution.id)
            if latest.status.value in ("assessed", "overridden"):  # else moved on meanwhile: as it is
                latest.terminate("not_started", {"detail": f"recorded as {latest.status.value} and never started: {why}"})
                self.store.save(latest)

        retry_concurrent_writes(end, f"the end of execution {execution.id}")
        self.in_flight.forget(str(execution.id))
        return self.store.get(execution.id)

    def renew_lease(self) -> None:
        """This server's heartbeat on the ledger (application.abandoned)."""
        self.liveness.renew()

    def release_lease(self) -> None:
        self.liveness.release()

    def remove_leftovers(self) -> int:
        return self.sandbox.remove_leftovers()

    def awaiting_ids(self) -> list[UUID]:
        """Executions asked to wait for an answer and neither answered nor ended."""
        return open_ids(self.recorder, AWAITING)

    def running_ids(self) -> list[UUID]:
        """Executions with a Started event and no end."""
        return open_ids(self.recorder, RUNNING)

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
        running = self.running_ids()
        lost = recover_lost(self.sandbox, self.store.save, self.store.get, running, why_gone, leftovers=leftovers)
        pending = open_holders(self.recorder, PENDING)
        ended = end_not_started(self.store.save, self.store.get, pending, why_gone, why_unknown_gone, self.sandbox.remove_execution)
        for execution_id in (*lost, *ended):
            self.in_flight.forget(execution_id)
        self.in_flight.prune({str(each) for each in pending} | {str(each) for each in running})
        return [*lost, *ended]

    def _expire_overdue(self) -> list[str]:
        ended = []
        for execution_id in self.awaiting_ids():

            def expire(execution_id: UUID = execution_id) -> bool:
                execution = self.store.get(execution_id)
                if not execution.is_overdue(self.clock()):
                    return False  # answered or ended meanwhile
                execution.expire(self.clock())
                self.store.save(execution)
                return True

            if retry_concurrent_writes(expire, f"the expiry of execution {execution_id}"):
                ended.append(str(execution_id))
        return ended

__all__ = ["Upkeep"]
