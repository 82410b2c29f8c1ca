"""The auditors' and administrators' routes: ``/v1/audit/verify``, ``/v1/audit/export``,
``/v1/tokens`` and ``/v1/policies``. Who may call which is the application's to decide
(domain.access); these only parse, call as the principal and shape the answer."""

# No ``from __future__ import annotations``: FastAPI reads the routes' annotations at runtime.

from datetime import datetime, timezone
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse

from mai_safety.application.access import TokenReport
from mai_safety.application.reports import VerificationReport

from .auth import Caller, as_principal, service_of
from .contract import problem_responses
from .export import stream_export
from .models import PolicyRequest

router = APIRouter()


@router.get("/v1/audit/verify", tags=["audit"], response_model=VerificationReport)
def verify(request: Request, who: Caller) -> VerificationReport:
    """Both hash chains, every signed checkpoint and every event MAC (role ``auditor``)."""
    with as_principal(who):
        return service_of(request).verify()


@router.get(
    "/v1/audit/export",
    tags=["audit"],
    response_model=None,
    responses={
        200: {"content": {"application/x-ndjson": {"schema": {"type": "string"}}}, "description": "the bundle, one JSON object a line"},
        **problem_responses(404),
    },
)
def export(
    request: Request,
    who: Caller,
    execution: Annotated[str | None, Query(description="one execution's bundle; not with from or to (else 422)")] = None,
    from_position: Annotated[int | None, Query(alias="from", ge=1, description="the first position; at most the ledger's head and at most to (else 422)")] = None,
    to_position: Annotated[int | None, Query(alias="to", ge=1, description="the last position")] = None,
    without_file_bytes: Annotated[
        bool, Query(description="name the runs' input and output files (name, size, SHA-256) but leave their bytes out; the header says so")
    ] = False,
) -> StreamingResponse:
    """The self-contained bundle ``mai-safety audit export`` writes (role ``auditor``), streamed
    as it is written: the whole ledger, a range (``from``, ``to``: positions), or one
    ``execution`` (others' events as hashes only). Check it anywhere with ``mai-safety audit
    verify --bundle FILE``: no database needed. The head is sealed first, as the CLI does."""
    with as_principal(who):
        write = service_of(request).export(
            execution=execution, from_position=from_position, to_position=to_position, without_file_bytes=without_file_bytes
        )
        scope = "-" + "".join(char for char in execution.lower() if char in "0123456789abcdef-")[:36] if execution else ""
        return stream_export(write, f"mai-safety-ledger{scope}.jsonl")


@router.get("/v1/tokens", tags=["audit"], response_model=list[TokenReport])
def tokens(request: Request, who: Caller, as_of: datetime | None = None) -> list[TokenReport]:
    """Every token granted and whether it was active, now or ``as_of`` a moment: who could
    do what then (roles ``admin``, ``auditor``). Never a token itself: only its id."""
    if as_of is not None and as_of.tzinfo is None:
        as_of = as_of.replace(tzinfo=timezone.utc)
    with as_principal(who):
        return service_of(request).tokens(as_of=as_of)


@router.get("/v1/policies/current", tags=["policies"])
def current_policy(request: Request, who: Caller) -> dict[str, Any]:
    """The policy version in force (0: the shipped folder, unrecorded) and its files' SHA-256."""
    return service_of(request).policy_in_force().to_dict()


@router.post("/v1/policies/validate", tags=["policies"])
def validate_policy(request: Request, body: PolicyRequest, who: Caller) -> dict[str, Any]:
    """Check the files as ``POST /v1/policies`` does (role ``admin``) and record nothing: 200
    ``{"valid": true, "files": N}``, or 422 naming what does not validate."""
    with as_principal(who):
        return {"valid": True, "files": service_of(request).validate_policy(body.files)}


@router.post("/v1/policies", tags=["policies"], responses=problem_responses(409))
def apply_policy(request: Request, body: PolicyRequest, who: Caller) -> dict[str, Any]:
    """Validate the files and record them as the next policy version (role ``admin``); new
    executions are judged by it. One that does not validate changes nothing: 422."""
    with as_principal(who):
        return service_of(request).apply_policy(body.files).to_dict()
