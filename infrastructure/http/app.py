"""The HTTP entrypoint: parse, authenticate, call one application command or query as the token's
principal, map the result or the error. No rule of who may do what lives here (domain.access)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, TimeoutError as FutureTimeout
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Annotated, Any
from uuid import UUID, uuid4, uuid5

from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi.responses import JSONResponse, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from mai_safety.application.access import TokenReport
from mai_safety.application.errors import ExecutionNotFound
from mai_safety.application.reports import AssessmentReport, ExecutionReport, VerificationReport
from mai_safety.application.access import acting_as
from mai_safety.application.executions import MaiSafety
from mai_safety.application.read_models import ReadModels
from mai_safety.domain.access import Principal
from mai_safety.domain.limits import RequestedLimits

from ..bootstrap import read_models as build_read_models
from . import problems
from .export import stream_export
from .limits import BodyLimit
from .models import (
    AssessmentRequest,
    ConfirmRequest,
    DenyRequest,
    ExecutionRequest,
    OverrideRequest,
    PendingExecution,
    PolicyRequest,
)
from .runs import Runs
from .streams import EventStream, StreamSlots, follow
from .views import view_routes

#: Idempotency-Key → execution id, per principal: uuid5 in a namespace of our own.
IDEMPOTENCY_NAMESPACE = UUID("7d0f6a4e-1b8e-5c39-9a57-3f1f0c2a6e11")
_bearer = HTTPBearer(auto_error=False, description="a token from `mai-safety tokens create`")


def _principal(request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> Principal:
    """The request's principal: its bearer token, through the application's ``authenticate``."""
    service: MaiSafety = request.app.state.service
    return service.authenticate(credentials.credentials if credentials else None)


Caller = Annotated[Principal, Depends(_principal)]


def create_app(
    service: MaiSafety,
    runs: Runs,
    *,
    max_code_bytes: int,
    max_wait_s: float = 60.0,
    streams: StreamSlots | None = None,
    stopping: threading.Event | None = None,
    read_models: ReadModels | None = None,
) -> FastAPI:
    api = FastAPI(
        title="mai-safety",
        version="1",
        description="Assess AI-written Python, run it in a hardened container, record every step on a signed ledger.",
    )
    problems.install(api)
    # A body holds the code JSON-escaped (a quote or a backslash doubles) and a few fields.
    api.add_middleware(BodyLimit, max_bytes=2 * max_code_bytes + 64 * 1024)

    api.state.service = service
    # The read models (docs/decisions/0021): made here unless the server passes those its follower keeps.
    api.state.read_models = read_models or build_read_models(service)
    api.include_router(view_routes(_principal, as_principal))
    slots = streams or StreamSlots(64, 8)
    stopping = stopping or threading.Event()

    def wait_for(future: Future[ExecutionReport], execution_id: str, who: Principal, wait_s: float | None) -> Any:
        bound = max_wait_s if wait_s is None else min(wait_s, max_wait_s)
        try:
            return future.result(timeout=bound)
        except FutureTimeout:
            pass
        with as_principal(who):
            try:
                status = service.report(execution_id).status
            except ExecutionNotFound:
                status = "assessing"  # not yet recorded: the assessment is still running
        return JSONResponse(
            PendingExecution(execution_id=execution_id, status=status).model_dump(),
            status_code=202,
            headers={"Location": f"/v1/executions/{execution_id}"},
        )

    # JSON may carry lone surrogates ("\ud800"); kept as bytes, the domain refuses them as not UTF-8 (422).

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

    @api.post("/v1/assessments", tags=["executions"], response_model=AssessmentReport)
    def assess(body: AssessmentRequest, who: Caller) -> AssessmentReport:
        """The verdict alone: nothing is recorded and nothing runs."""
        with as_principal(who):
            return service.assess(body.code.encode("utf-8", "surrogatepass"), provenance=body.provenance, source="the request's code")

    @api.post(
        "/v1/executions",
        tags=["executions"],
        response_model=ExecutionReport,
        responses={202: {"model": PendingExecution}},
    )
    def submit(
        body: ExecutionRequest,
        who: Caller,
        idempotency_key: Annotated[str | None, Header(max_length=200, pattern=r"^[\x21-\x7e]+$")] = None,
    ) -> Any:
        """Assess, record, and run if the gate allows, answering with the finished execution
        (HIGH and BLOCKED code: ``awaiting_override``). A retry with the same ``Idempotency-Key``
        returns the first execution and records nothing new."""
        code = body.code.encode("utf-8", "surrogatepass")
        limits = RequestedLimits(**body.limits.model_dump())
        caller = {"task_id": body.task_id or "", "session_id": body.session_id or "", "on_behalf_of": body.on_behalf_of or ""}
        with as_principal(who):
            execution_id = (
                service.submission_id(uuid5(IDEMPOTENCY_NAMESPACE, f"{who.name}\n{idempotency_key}"))
                if idempotency_key
                else uuid4()
            )
            future = runs.start(
                str(execution_id),
                lambda: service.run(
                    code,
                    provenance=body.provenance,
                    requested=limits,
                    source="the request's code",
                    network=body.network,
                    requirements=body.requirements,
                    caller=caller,
                    execution_id=execution_id,
                    revises=body.revises,
                ),
            )
        return wait_for(future, str(execution_id), who, body.wait_s)

    @api.get("/v1/executions/{execution_id}", tags=["executions"], response_model=ExecutionReport)
    def read(execution_id: str, who: Caller) -> ExecutionReport:
        with as_principal(who):
            return service.report(execution_id)

    @api.get("/v1/executions/{execution_id}/events", tags=["executions"])
    def events(execution_id: str, who: Caller) -> list[dict[str, Any]]:
        """The execution's events in order, each with its actor, its ledger position and both chain hashes."""
        with as_principal(who):
            return service.history(execution_id, with_hashes=True)

    @api.get(
        "/v1/executions/{execution_id}/stream",
        tags=["executions"],
        response_model=None,
        responses={200: {"content": {"text/event-stream": {"schema": {"type": "string"}}}, "description": "server-sent events: state, recorded, sample, output, dropped, end (then it closes), or closing"}},
    )
    def stream(execution_id: str, who: Caller) -> EventStream:
        """The execution as server-sent events: ``state``, then its recorded events (``sample``
        for each resource sample, ``recorded`` for the others) and its output as it comes
        (``output``; ``dropped`` when this reader fell behind), and finally ``end`` with its
        report, after which the stream closes. An execution that has ended sends what was
        recorded and its end at once. Visible as the execution is; nothing is recorded."""
        with as_principal(who):
            watch = service.watch(execution_id)
        try:
            slots.take(who.name)
        except BaseException:
            watch.close()
            raise

        def closed() -> None:
            watch.close()
            slots.give_back(who.name)

        return EventStream(follow(watch, stopping), closed)

    def answer(execution_id: str, who: Principal, wait_s: float | None, work: Callable[[], ExecutionReport]) -> Any:
        with as_principal(who):
            future = runs.start(execution_id, work)
        return wait_for(future, execution_id, who, wait_s)

    @api.post("/v1/executions/{execution_id}/confirm", tags=["gate"], response_model=ExecutionReport, responses={202: {"model": PendingExecution}})
    def confirm(execution_id: str, who: Caller, body: ConfirmRequest | None = None) -> Any:
        """Confirm HIGH code (role ``approver``; never its submitter), then run it."""
        body = body or ConfirmRequest()
        return answer(
            execution_id, who, body.wait_s,
            lambda: service.approve(execution_id, body.explanation, kind="confirmation", on_behalf_of=body.on_behalf_of),
        )

    @api.post("/v1/executions/{execution_id}/override", tags=["gate"], response_model=ExecutionReport, responses={202: {"model": PendingExecution}})
    def override(execution_id: str, body: OverrideRequest, who: Caller) -> Any:
        """Override BLOCKED code with a written explanation (role ``security-officer``; never its submitter), then run it."""
        return answer(
            execution_id, who, body.wait_s,
            lambda: service.approve(execution_id, body.explanation, kind="override", on_behalf_of=body.on_behalf_of),
        )

    @api.post("/v1/executions/{execution_id}/deny", tags=["gate"], response_model=ExecutionReport)
    def deny(execution_id: str, who: Caller, body: DenyRequest | None = None) -> ExecutionReport:
        """Refuse a waiting execution: it ends unrun (the role that could have answered it)."""
        with as_principal(who):
            return service.deny(execution_id, (body or DenyRequest()).reason)

    @api.post("/v1/executions/{execution_id}/cancel", tags=["gate"], response_model=ExecutionReport)
    def cancel(execution_id: str, who: Caller) -> ExecutionReport:
        """Stop a waiting or running execution (its submitter, an approver or a security officer)."""
        with as_principal(who):
            return service.cancel(execution_id)

    @api.get("/v1/audit/verify", tags=["audit"], response_model=VerificationReport)
    def verify(who: Caller) -> VerificationReport:
        """Both hash chains, every signed checkpoint and every event MAC (role ``auditor``)."""
        with as_principal(who):
            return service.verify()

    @api.get(
        "/v1/audit/export",
        tags=["audit"],
        response_model=None,
        responses={200: {"content": {"application/x-ndjson": {"schema": {"type": "string"}}}, "description": "the bundle, one JSON object a line"}},
    )
    def export(
        who: Caller,
        execution: str | None = None,
        from_position: Annotated[int | None, Query(alias="from", ge=1)] = None,
        to_position: Annotated[int | None, Query(alias="to", ge=1)] = None,
    ) -> StreamingResponse:
        """The self-contained bundle ``mai-safety audit export`` writes (role ``auditor``), streamed
        as it is written: the whole ledger, a range (``from``, ``to``: positions), or one
        ``execution`` (others' events as hashes only). Check it anywhere with ``mai-safety audit
        verify --bundle FILE``: no database needed. The head is sealed first, as the CLI does."""
        with as_principal(who):
            write = service.export(execution=execution, from_position=from_position, to_position=to_position)
            scope = "-" + "".join(char for char in execution.lower() if char in "0123456789abcdef-")[:36] if execution else ""
            return stream_export(write, f"mai-safety-ledger{scope}.jsonl")

    @api.get("/v1/tokens", tags=["audit"], response_model=list[TokenReport])
    def tokens(who: Caller, as_of: datetime | None = None) -> list[TokenReport]:
        """Every token granted and whether it was active, now or ``as_of`` a moment: who could
        do what then (roles ``admin``, ``auditor``). Never a token itself: only its id."""
        if as_of is not None and as_of.tzinfo is None:
            as_of = as_of.replace(tzinfo=timezone.utc)
        with as_principal(who):
            return service.tokens(as_of=as_of)

    @api.get("/v1/policies/current", tags=["policies"])
    def current_policy(who: Caller) -> dict[str, Any]:
        """The policy version in force (0: the shipped folder, unrecorded) and its files' SHA-256."""
        return service.policy_in_force().to_dict()

    @api.post("/v1/policies", tags=["policies"])
    def apply_policy(body: PolicyRequest, who: Caller) -> dict[str, Any]:
        """Validate the files and record them as the next policy version (role ``admin``); new
        executions are judged by it. One that does not validate changes nothing: 422."""
        with as_principal(who):
            return service.apply_policy(body.files).to_dict()

    return api


@contextmanager
def as_principal(principal: Principal) -> Iterator[None]:
    """The one place a request's principal becomes the application's actor (domain.access)."""
    with acting_as(principal.name, principal):
        yield



def _projections_status(read_models: ReadModels) -> dict[str, Any]:
    """The views' lag behind the ledger, and what waits for an answer (never fails the status)."""
    try:
        return read_models.summary()
    except Exception as exc:  # noqa: BLE001 - a status reports what fails, it does not fail
        return {"ok": False, "detail": f"{type(exc).__name__}: {exc}"[:300]}
