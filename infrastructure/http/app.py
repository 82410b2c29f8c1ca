"""The HTTP entrypoint: the FastAPI application, its problem responses and body limit, and the
routers: executions and the gate (execution_routes), audit, tokens and policies (audit_routes),
the read models (views). Authentication is auth.py's; no rule of who may do what lives here
(domain.access)."""

from __future__ import annotations

import threading
from typing import Any

from fastapi import FastAPI

from mai_safety.application.executions import MaiSafety
from mai_safety.application.read_models import ReadModels
from mai_safety.application.sessions import Sessions

from ..bootstrap import read_models as build_read_models
from . import audit_routes, contract, problems
from .auth import Caller, as_principal
from . import execution_routes, file_routes, session_routes
from .file_routes import files_allowance
from .execution_routes import IDEMPOTENCY_NAMESPACE, ExecutionRoutesState
from .limits import BodyLimit
from .runs import Runs
from .streams import StreamSlots
from .views import view_routes

__all__ = ["IDEMPOTENCY_NAMESPACE", "as_principal", "create_app"]


def create_app(
    service: MaiSafety,
    runs: Runs,
    *,
    max_code_bytes: int,
    max_wait_s: float = 60.0,
    streams: StreamSlots | None = None,
    stopping: threading.Event | None = None,
    read_models: ReadModels | None = None,
    sessions: Sessions | None = None,
) -> FastAPI:
    api = FastAPI(
        title="mai-safety",
        version="1",
        description="Assess AI-written Python, run it in a hardened container, record every step on a signed ledger.",
    )
    problems.install(api)
    contract.declare(api, max_code_bytes=max_code_bytes)
    # A body holds the code JSON-escaped (a quote or a backslash doubles) and a few fields.
    # Input files come base64 (4 bytes for 3), each with its name and a few bytes of JSON.
    api.add_middleware(BodyLimit, max_bytes=2 * max_code_bytes + 64 * 1024 + files_allowance(service.policy.files))

    api.state.service = service
    # The read models (docs/decisions/0021): made here unless the server passes those its follower keeps.
    api.state.read_models = read_models or build_read_models(service)
    api.include_router(view_routes())
    slots = streams or StreamSlots(64, 8)
    stopping = stopping or threading.Event()

    @api.get("/v1/health", tags=["service"])
    def health() -> dict[str, str]:
        """Liveness: the process answers. No token needed."""
        return {"status": "ok"}

    @api.get("/v1/status", tags=["service"])
    def status(who: Caller) -> dict[str, Any]:
        """What answers and what does not: Docker, the ledger, gVisor's runtime ``runsc``; and the
        event streams open on this server, with what their live output holds in memory."""
        live = service.live.describe() if service.live is not None else {}
        projections = _projections_status(api.state.read_models)
        return {**service.status(), "projections": projections, "streams": {"open": slots.count(), "limit": slots.total, "per_principal": slots.per_principal, "live": live}}

    api.state.executions = ExecutionRoutesState(service, runs, max_wait_s, slots, stopping)
    api.include_router(execution_routes.router)
    api.include_router(file_routes.router)
    api.include_router(audit_routes.router)
    api.state.sessions = sessions  # issue #27: None where the sandbox is not Docker's
    api.include_router(session_routes.router)
    return api



def _projections_status(read_models: ReadModels) -> dict[str, Any]:
    """The views' lag behind the ledger, and what waits for an answer (never fails the status)."""
    try:
        return read_models.summary()
    except Exception as exc:  # noqa: BLE001 - a status reports what fails, it does not fail
        return {"ok": False, "detail": f"{type(exc).__name__}: {exc}"[:300]}
