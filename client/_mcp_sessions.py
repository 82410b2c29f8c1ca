"""The MCP server's session tools (issue #27): start a session, run a cell in it, end it. As for
``run_code``, no tool answers the gate: a cell that waits for a person comes back
``awaiting_override`` with what a person must do, and the session waits with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from pydantic import BaseModel, Field

from ._sessions import end_session, open_session, run_cell


class SessionOut(BaseModel):
    session_id: str
    status: str
    ended_reason: str | None = None
    cells: int = 0
    workspace: list[dict[str, Any]] = Field(default_factory=list, description="the working directory: name, size, sha256")
    workspace_listed_by: str | None = Field(None, description="who listed the working directory (the interpreter: self-reported)")


def _session(described: dict[str, Any]) -> SessionOut:
    return SessionOut(session_id=described["session_id"], status=described["status"], ended_reason=described.get("ended_reason"),
                      cells=len(described.get("cells") or []), workspace=list(described.get("workspace") or []),
                      workspace_listed_by=described.get("workspace_listed_by"))


class SessionTools:
    """``to_out``: an execution as the MCP server answers it; ``error``: a failure as one tool error."""

    def __init__(self, client: Any, to_out: Callable[[Any], Any], error: Callable[[Exception], Exception]) -> None:
        self.client = client
        self.to_out = to_out
        self.error = error

    async def start_session(
        self,
        idle_s: Annotated[float | None, Field(gt=0, le=86400, description="ended after this long without a cell (seconds)")] = None,
        lifetime_s: Annotated[float | None, Field(gt=0, le=86400, description="ended this long after it opened (seconds)")] = None,
    ) -> SessionOut:
        """Open a session: a live Python interpreter in a hardened container that keeps its
        variables, imports and working directory's files between cells, as a notebook does. Each
        cell is judged with the cells before it. A session has no network (its cells are untrusted code)."""
        try:
            return _session(await self.client._send(open_session(None, idle_s, lifetime_s, None)))
        except Exception as exc:  # noqa: BLE001 - every failure becomes one clear tool error
            raise self.error(exc) from None

    async def run_in_session(
        self,
        session_id: Annotated[str, Field(min_length=1, max_length=100, description="a session_id from start_session")],
        code: Annotated[str, Field(min_length=1, description="the cell: Python run with the session's state; its last expression is shown")],
    ) -> dict[str, Any]:
        """Run a cell in a session. LOW and MEDIUM cells run; a HIGH or BLOCKED cell (judged with
        the session's earlier cells) does NOT run: it is awaiting_override, and the session waits
        for a person; no tool can confirm or override it."""
        try:
            out: dict[str, Any] = self.to_out(await self.client._send(run_cell(session_id, code))).model_dump()
            return out
        except Exception as exc:  # noqa: BLE001
            raise self.error(exc) from None

    async def end_session(
        self, session_id: Annotated[str, Field(min_length=1, max_length=100, description="a session_id from start_session")]
    ) -> SessionOut:
        """End a session: its interpreter and container are removed; its record stays."""
        try:
            return _session(await self.client._send(end_session(session_id)))
        except Exception as exc:  # noqa: BLE001
            raise self.error(exc) from None
