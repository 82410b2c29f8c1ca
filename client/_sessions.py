"""Sessions (issue #27) for the clients: a live interpreter on the service that keeps its state
between cells, each cell judged with the ones before it.

    with client.session() as session:
        session.run("x = 41")
        print(session.run("print(x + 1)").stdout)

``client.session()`` opens one (``POST /v1/sessions``); leaving the ``with`` ends it (``DELETE``).
A cell that waits for a person comes back ``awaiting_override``: the gate's confirm or override
(another principal's) runs it in the session. Nothing here is imported from the service's side.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

from ._core import Call, _clean, _id
from ._errors import Conflict
from ._files import FilesArg, encoded_files


def open_session(image: str | None, idle_s: float | None, lifetime_s: float | None, max_cells: int | None,
                 cell_timeout_s: float | None = None, cell_cpu_s: float | None = None, network: str | None = None,
                 total_cpu_s: float | None = None) -> Call:
    """Not retried: a retry would open a second session."""
    body = _clean({"image": image, "idle_s": idle_s, "lifetime_s": lifetime_s, "max_cells": max_cells,
                   "cell_timeout_s": cell_timeout_s, "cell_cpu_s": cell_cpu_s, "network": network, "total_cpu_s": total_cpu_s})
    return Call("POST", "/v1/sessions", "session", body=body)


def run_cell(session_id: str, code: str, files: FilesArg = None) -> Call:
    """Not retried: it runs code, and a cell's state is the next one's."""
    return Call("POST", f"/v1/sessions/{_id(session_id)}/executions", "execution", body=_clean({"code": code, "files": encoded_files(files)}))


def get_session(session_id: str) -> Call:
    return Call("GET", f"/v1/sessions/{_id(session_id)}", "session", retryable=True)


def end_session(session_id: str) -> Call:
    return Call("DELETE", f"/v1/sessions/{_id(session_id)}", "session")


class Session:
    """One open session of a ``Client``: ``run`` a cell, ``describe`` it, ``end`` it."""

    def __init__(self, client: Any, described: dict[str, Any]) -> None:
        self._client = client
        self.session_id: str = described["session_id"]
        self.opened = described

    def __enter__(self) -> Session:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None) -> None:
        self.end()

    def run(self, code: str, *, files: FilesArg = None) -> Any:
        """The cell's execution: ended, or ``awaiting_override`` (the session waits with it)."""
        return self._client._send(run_cell(self.session_id, code, files))

    def describe(self) -> dict[str, Any]:
        """Its state, cells and working directory's manifest."""
        described: dict[str, Any] = self._client._send(get_session(self.session_id))
        return described

    def end(self) -> dict[str, Any]:
        """End it (recorded); its container is removed. Ending an ended session is harmless."""
        try:
            described: dict[str, Any] = self._client._send(end_session(self.session_id))
        except Conflict:
            return self.describe()
        return described


class AsyncSession:
    """The asynchronous twin of ``Session``: ``async with client.session() as session``."""

    def __init__(self, client: Any, options: dict[str, Any]) -> None:
        self._client = client
        self._options = options
        self.session_id = ""

    async def __aenter__(self) -> AsyncSession:
        described = await self._client._send(open_session(**self._options))
        self.session_id = described["session_id"]
        return self

    async def __aexit__(self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None) -> None:
        await self.end()

    async def run(self, code: str, *, files: FilesArg = None) -> Any:
        return await self._client._send(run_cell(self.session_id, code, files))

    async def describe(self) -> dict[str, Any]:
        described: dict[str, Any] = await self._client._send(get_session(self.session_id))
        return described

    async def end(self) -> dict[str, Any]:
        described: dict[str, Any] = await self._client._send(end_session(self.session_id))
        return described
