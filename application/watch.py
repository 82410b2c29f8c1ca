"""Following one execution as it goes (the service's event streams): ``ExecutionWatch`` reads its
recorded events as they are written and, while this process runs it, its output as it comes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from mai_safety.domain.access import Principal
from mai_safety.domain.execution import actor_context

from .access import acting_as
from mai_safety.ledger.application.blobs import with_full_output
from .live import OutputWatcher
from .ports import BlobStore
from .reports import ExecutionReport

if TYPE_CHECKING:
    from .executions import MaiSafety


class ExecutionWatch:
    """What ``MaiSafety.watch`` hands out: reads of one execution, checked visible once."""

    #: The events after which nothing more is recorded for an execution.
    FINAL_EVENTS = frozenset({"Completed", "Terminated"})

    def __init__(
        self, app: MaiSafety, execution_id: UUID, principal: Principal | None, *, status: Callable[[], str]
    ) -> None:
        self._app = app
        self._status = status
        self.execution_id = execution_id
        self._principal = principal
        self.output: OutputWatcher | None = app.live.watch(str(execution_id)) if app.live is not None else None

    def recorded_after(self, version: int, limit: int = 200) -> list[dict[str, Any]]:
        """The execution's events after ``version``, oldest first, as plain data (as ``history``,
        but output kept as a blob is not read back: the stream's end carries the report)."""
        events = self._app.repository.event_store.get(self.execution_id, gt=version, limit=limit)
        return [event_data(event, None) for event in events]

    def token_active(self) -> bool:
        """Whether the token the watch was opened with still holds (always, outside the service)."""
        if self._principal is None or not self._principal.token_id:
            return True
        return self._app.token_active(self._principal.token_id)

    def status(self) -> str:
        """The status now, without reading its output back (a stream opening says only this)."""
        return self._status()

    def report(self) -> ExecutionReport:
        with acting_as(self._principal.name if self._principal else actor_context.get(), self._principal):
            return self._app.report(self.execution_id)

    def close(self) -> None:
        if self.output is not None:
            self.output.close()


def event_data(event: Any, blobs: BlobStore | None) -> dict[str, Any]:
    """One recorded event as plain data (output kept as a blob read back whole, where ``blobs`` is given)."""
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


__all__ = ["ExecutionWatch", "event_data"]
