"""The queries over executions: what an execution is now (``report``), what was recorded of it
(``history``), how to follow it as it goes (``watch``), the ledger's verification and export, the
service's health. Queries return plain data, never live aggregates; what a principal may not see
does not exist for it (application.store)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO
from uuid import UUID

from mai_safety.domain.access import Action, check_acting_principal_may, principal_context
from mai_safety.domain.errors import InvalidSubmission
from mai_safety.domain.execution import Execution
from mai_safety.ledger import LedgerAudit, with_full_output

from .errors import InvalidQuery, SandboxUnavailable
from .execution_answer import answer_extras
from .live import LiveOutput
from .open_sets import AWAITING, RUNNING, open_ids
from .ports import BlobStore, Sandbox
from .reports import ExecutionReport, VerificationReport
from .store import ExecutionStore
from .watch import ExecutionWatch, event_data


class ExecutionQueries:
    """Reads executions from ``store``, the ledger's positions from ``recorder``, output kept apart
    from ``blobs``; ``live``: the output of the runs this process supervises, as it comes (the
    service; None for the CLI); ``token_active``: whether a token still holds (application.access)."""

    def __init__(
        self,
        store: ExecutionStore,
        recorder: Any,
        audit: LedgerAudit,
        blobs: BlobStore | None,
        sandbox: Sandbox,
        token_active: Callable[[str], bool],
        live: Callable[[], LiveOutput | None] = lambda: None,
    ) -> None:
        self.store = store
        self.recorder = recorder
        self.audit = audit
        self.blobs = blobs
        self.sandbox = sandbox
        self.token_active = token_active
        self.live = live

    def report(self, execution: UUID | str | Execution) -> ExecutionReport:
        """What an execution is now, read from the ledger; or, given the aggregate a command has
        just recorded, what that record says (it is not read again)."""
        if isinstance(execution, Execution):
            execution = self.store.visible(execution)
        else:
            execution = self.store.get_visible(execution)
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
            **answer_extras(execution),
        )

    def history(self, execution_id: UUID | str, *, with_hashes: bool = False) -> list[dict[str, Any]]:
        """The execution's events in order, as plain data (output kept as a blob is read back whole);
        ``with_hashes``: each with its ledger position and both chain hashes (``chain``), as `audit
        verify` recomputes them."""
        execution = self.store.get_visible(execution_id)
        events = [event_data(event, self.blobs) for event in self.store.events(execution.id)]
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
            execution = str(self.store.get(execution).id)
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

    def watch(self, execution_id: UUID | str) -> ExecutionWatch:
        """Follow an execution as it goes (the service's event stream): its recorded events as
        they are written, and, while this process runs it, its output as it comes. Visible as the
        execution itself is (ExecutionNotFound otherwise); nothing is recorded."""
        execution = self.store.get_visible(execution_id)
        live = self.live()
        return ExecutionWatch(
            execution.id,
            principal_context.get(),
            events=self.store.events,
            report=self.report,
            token_active=self.token_active,
            status=lambda: self.store.get(execution.id).status.value,
            output=live.watch(str(execution.id)) if live is not None else None,
        )


__all__ = ["ExecutionQueries"]
