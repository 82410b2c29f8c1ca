"""The executions on the ledger as the application's objects read and write them: one by id, as
the acting principal may see it (service mode: the token's principal, docs/decisions/0016), and
saved through the application, which seals what ends (application.executions)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from mai_safety.domain.access import principal_context
from mai_safety.domain.execution import Execution

from .errors import ExecutionNotFound

#: The application's save: records aggregates' pending events (IntegrityError when another writer
#: took a version first), sealing endings as the ledger's policy says.
Save = Callable[..., Any]


class ExecutionStore:
    """Reads executions from ``repository`` and saves them with ``save``."""

    def __init__(self, repository: Any, save: Save) -> None:
        self.repository = repository
        self.save = save
        self._began = False

    def began(self) -> bool:
        """Whether anything is recorded on the ledger yet (once it is, it always is)."""
        if not self._began:
            self._began = self.repository.event_store.recorder.max_notification_id() is not None
        return self._began

    def get(self, execution_id: UUID | str) -> Execution:
        try:
            execution = self.repository.get(as_uuid(execution_id))
        except AggregateNotFoundError:
            raise ExecutionNotFound(f"no execution {execution_id} in this ledger: check the id") from None
        if not isinstance(execution, Execution):  # another aggregate's id (a token's)
            raise ExecutionNotFound(f"no execution {execution_id} in this ledger: check the id")
        return execution

    def visible(self, execution: Execution) -> Execution:
        """A principal that may not see this execution is told it does not exist."""
        principal = principal_context.get()
        if principal is not None and not principal.may_see(self.submitted_by(execution)):
            raise ExecutionNotFound(f"no execution {execution.id} in this ledger: check the id")
        return execution

    def get_visible(self, execution_id: UUID | str) -> Execution:
        return self.visible(self.get(execution_id))

    def submitted_by(self, execution: Execution) -> str | None:
        """The principal that submitted it; for one submitted without the service, its Assessed actor."""
        if execution.submitted_by is not None:
            return execution.submitted_by
        first = next(iter(self.events(execution.id, lte=1)), None)
        return getattr(first, "actor", None)

    def events(self, aggregate_id: UUID, **selection: Any) -> Iterable[Any]:
        """An aggregate's stored events (eventsourcing's ``EventStore.get`` selection: gt, lte, desc, limit)."""
        return self.repository.event_store.get(aggregate_id, **selection)  # type: ignore[no-any-return]


def as_uuid(execution_id: UUID | str) -> UUID:
    if isinstance(execution_id, UUID):
        return execution_id
    try:
        return UUID(execution_id)
    except ValueError:
        raise ExecutionNotFound(f"{execution_id!r} is not an execution id (a UUID)") from None


__all__ = ["ExecutionStore", "Save", "as_uuid"]
