"""The queries over executions, mixed into the application (as the token commands are): what
an execution is now (``report``), what was recorded of it (``history``), the ledger's verification
and export, the service's health; and who may see an execution (service mode: the token's
principal, docs/decisions/0016). Queries return plain data, never live aggregates."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from mai_safety.domain.access import Action, check_acting_principal_may, principal_context
from mai_safety.domain.errors import InvalidSubmission
from mai_safety.domain.execution import Execution

from mai_safety.ledger.application.blobs import with_full_output
from .errors import ExecutionNotFound, InvalidQuery, SandboxUnavailable
from .open_sets import AWAITING, RUNNING, open_ids
from .ports import BlobStore, Sandbox
from .reports import ExecutionReport, VerificationReport
from mai_safety.ledger.application.verification import LedgerAudit
from .watch import event_data


class ExecutionQueries:
    """The application's queries (mixed into MaiSafety, on its ledger)."""

    repository: Any
    recorder: Any
    audit: LedgerAudit
    blobs: BlobStore | None
    sandbox: Sandbox

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
            files_in=list(execution.files_in),
            files_out=list(outcome.get("files_out") or []),
        )

    def history(self, execution_id: UUID | str, *, with_hashes: bool = False) -> list[dict[str, Any]]:
        """The execution's events in order, as plain data (output kept as a blob is read back whole);
        ``with_hashes``: each with its ledger position and both chain hashes (``chain``), as `audit
        verify` recomputes them."""
        execution = self._visible(self._get(execution_id))
        events = [event_data(event, self.blobs) for event in self.repository.event_store.get(execution.id)]
        if with_hashes:
            hashes = self.audit.hashes_of(str(execution.id))
            for event in events:
                event["chain"] = hashes.get(event["version"])
        return events

    def verify(self) -> VerificationReport:
        """Both chains and every checkpoint, over the whole ledger (``self.audit`` for more)."""
        check_acting_principal_may(Action.VERIFY)
        return self.audit.verify()

    def export(
        self,
        *,
        execution: str | None = None,
        from_position: int | None = None,
        to_position: int | None = None,
        without_file_bytes: bool = False,
    ) -> Callable[[TextIO], VerificationReport]:
        """The bundle ``mai-safety audit export`` writes, as a writer for ``out``: the caller's
        right and the scope are checked now, before anything is written (the head is sealed when
        the writer starts, as the CLI's export does)."""
        check_acting_principal_may(Action.EXPORT)
        if execution is not None and (from_position is not None or to_position is not None):
            raise InvalidSubmission("an export of one execution chooses its own range: leave out from and to")
        if from_position is not None and to_position is not None and from_position > to_position:
            raise InvalidQuery(f"from {from_position} is after to {to_position}: nothing to export; give from at most to", "from")
        if execution is not None:
            execution = str(self._get(execution).id)
        return lambda out: self.audit.export(
            out, execution=execution, from_position=from_position, to_position=to_position, without_file_bytes=without_file_bytes
        )

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
            "images": self.sandbox.describe_images() if docker["ok"] else {},
        }

    def awaiting_ids(self) -> list[UUID]:
        """Executions asked to wait for an answer and neither answered nor ended."""
        return open_ids(self.recorder, AWAITING)

    def running_ids(self) -> list[UUID]:
        """Executions with a Started event and no end."""
        return open_ids(self.recorder, RUNNING)

    # --- who may see (service mode: the token's principal; docs/decisions/0016) -----------

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


__all__ = ["ExecutionQueries"]
