"""The sessions' routes (issue #27, decision 0040): open, run a cell, read, end. Each parses,
calls one command or query of application.sessions, and answers; a session belongs to its
submitter (others are told it does not exist, 404), a cell of an ended session is refused (409),
past the bound of open sessions the answer is 429. A cell that waits for a person is answered with
its execution (``awaiting_override``): the executions' confirm and override routes answer it, and
the cell then runs in its session."""

# No ``from __future__ import annotations``: FastAPI reads the routes' annotations at runtime.

from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from mai_safety.application.errors import SandboxUnavailable
from mai_safety.application.reports import ExecutionReport
from mai_safety.application.sessions import Sessions
from mai_safety.domain.network import NetworkMode
from mai_safety.domain.session import SessionLimits

from .auth import Caller, as_principal
from .contract import problem_responses
from .file_routes import decoded_files
from .models import InputFileModel

router = APIRouter()


class SessionRequest(BaseModel):
    """What a session asks for; each bound is capped by the policy's (a caller may ask for less)."""

    model_config = ConfigDict(extra="forbid")
    image: str = Field(default="default", max_length=100, description="the sandbox image by name, as for a run")
    idle_s: float | None = Field(default=None, gt=0, description="ended after this long without a cell")
    lifetime_s: float | None = Field(default=None, gt=0, description="ended this long after it opened, whatever it does")
    max_cells: int | None = Field(default=None, gt=0)
    cell_timeout_s: float | None = Field(default=None, gt=0, description="each cell's wall clock")
    cell_cpu_s: float | None = Field(default=None, gt=0, description="each cell's CPU time")
    total_cpu_s: float | None = Field(
        default=None, gt=0, description="the CPU time the session's container may use in all, read from its cgroup; past it the session ends (limit)"
    )
    network: Literal["none", "deps"] = Field(
        default="none", description="none: a session's cells are untrusted code, which never gets a network (deps is refused, 422, as for a run the policy refuses it)"
    )


class CellRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str = Field(description="the cell: Python run in the session's interpreter, with its state")
    files: list[InputFileModel] = Field(default_factory=list, max_length=10_000, description="files placed in the working directory first")


def _sessions(request: Request) -> Sessions:
    sessions: Sessions | None = request.app.state.sessions
    if sessions is None:
        raise SandboxUnavailable("this server runs no sessions: they need the Docker sandbox")
    return sessions


@router.post("/v1/sessions", tags=["sessions"], status_code=201, responses=problem_responses(429))
def open_session(request: Request, who: Caller, body: SessionRequest | None = None) -> Any:
    """Open a session: a container of its own with a live interpreter. Answers its ``session_id``."""
    body = body or SessionRequest()
    sessions = _sessions(request)
    asked = {key: value for key, value in body.model_dump().items() if key not in ("image", "network") and value is not None}
    with as_principal(who):
        limits = SessionLimits(**{**sessions.policy.limits.to_dict(), **asked}) if asked else None
        session_id = sessions.open(body.image, limits, NetworkMode(body.network))
        described = sessions.describe(session_id)
    return JSONResponse(described, status_code=201, headers={"Location": f"/v1/sessions/{session_id}"})


@router.post("/v1/sessions/{session_id}/executions", tags=["sessions"], response_model=ExecutionReport, responses=problem_responses(409, 429))
def run_cell(request: Request, session_id: str, body: CellRequest, who: Caller) -> ExecutionReport:
    """Run a cell, judged with the session's earlier cells; its execution, ended or waiting."""
    sessions = _sessions(request)
    with as_principal(who):
        return sessions.run(session_id, body.code.encode("utf-8", "surrogatepass"), dict(decoded_files(body.files)))


@router.get("/v1/sessions/{session_id}", tags=["sessions"])
def read_session(request: Request, session_id: str, who: Caller) -> dict[str, Any]:
    """Its state, its cells (each an execution), its working directory's manifest."""
    with as_principal(who):
        return _sessions(request).describe(session_id)


@router.delete("/v1/sessions/{session_id}", tags=["sessions"], responses=problem_responses(409))
def end_session(request: Request, session_id: str, who: Caller) -> dict[str, Any]:
    """End it (recorded), and remove its container; later cells are refused (409)."""
    with as_principal(who):
        return _sessions(request).end(session_id)
