"""Following one execution as it goes (the service's event streams): ``ExecutionWatch`` reads its
recorded events as they are written and, while this process runs it, its output as it comes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from uuid import UUID

from mai_safety.domain.access import Principal
from mai_safety.domain.execution import actor_context

from .access import acting_as
from mai_safety.ledger import with_full_output
from .live import OutputWatcher
from .ports import BlobStore
from .reports import ExecutionReport


class ExecutionWatch:
    """What ``ExecutionQueries.watch`` hands out: reads of one execution, checked visible once.
    ``events``: the store's selection of an aggregate's events; ``report``: the query, asked as
    the watch's principal; ``token_active``: whether a token still holds; ``output``: the live
    output of the run, while this process runs it."""

    #: The events after which nothing more is recorded for an execution.
    FINAL_EVENTS = frozenset({"Completed", "Terminated"})

    def __init__(
        self,
        execution_id: UUID,
        principal: Principal | None,
        *,
        events: Callable[..., Iterable[Any]],
        report: Callable[[UUID], ExecutionReport],
        token_active: Callable[[str], bool],
        status: Callable[[], str],
        output: OutputWatcher | None = None,
    ) -> None:
        self._events = events
        self._report = report
        self._token_active = token_active
        self._status = status
        self.execution_id = execution_id
        self._principal = principal
        self.output = output

    def recorded_after(self, version: int, limit: int = 200) -> list[dict[str, Any]]:
        """The execution's events after ``version``, oldest first, as plain data (as ``history``,
        but output kept as a blob is not read back: the stream's end carries the report)."""
        events = self._events(self.execution_id, gt=version, limit=limit)
        return [event_data(event, None) for event in events]

    def token_active(self) -> bool:
        """Whether the token the watch was opened with still holds (always, outside the service)."""
        if self._principal is None or not self._principal.token_id:
            return True
        return self._token_active(self._principal.token_id)

    def status(self) -> str:
        """The status now, without reading its output back (a stream opening says only this)."""
        return self._status()

    def report(self) -> ExecutionReport:
        with acting_as(self._principal.name if self._principal else actor_context.get(), self._principal):
            return self._report(self.execution_id)

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
