"""The executions' routes: assess, submit, read, its events and its live stream, and the gate's
answers (confirm, override, deny, cancel). A submission or an answer runs on ``runs`` and is waited
for up to the server's bound, then answered ``202`` with a ``Location``. A submission's id is
readable and followable by its submitter from that moment, before anything is recorded
(submissions.py)."""

# No ``from __future__ import annotations``: FastAPI reads the routes' annotations at runtime.

import asyncio
import threading
from dataclasses import dataclass, field
from collections.abc import Callable
from concurrent.futures import Future
from typing import Annotated, Any
from uuid import UUID, uuid4, uuid5

from fastapi import APIRouter, Header, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from pydantic import TypeAdapter

from mai_safety.application.errors import ExecutionNotFound
from mai_safety.application.executions import MaiSafety
from mai_safety.application.reports import AssessmentReport, ExecutionReport
from mai_safety.application.watch import ExecutionWatch
from mai_safety.domain.access import Principal
from mai_safety.domain.limits import RequestedLimits

from .auth import Caller, as_principal
from .contract import problem_responses
from .problems import of_the_moment
from .models import AssessmentRequest, ConfirmRequest, DenyRequest, ExecutionRequest, OverrideRequest, PendingExecution
from .runs import Runs
from .streams import EventStream, StreamSlots, follow, follow_submission
from .submissions import ASSESSING, PendingSubmission, Submissions
from .file_routes import decoded_files

#: Idempotency-Key → execution id, per principal: uuid5 in a namespace of our own.
IDEMPOTENCY_NAMESPACE = UUID("7d0f6a4e-1b8e-5c39-9a57-3f1f0c2a6e11")


@dataclass
class ExecutionRoutesState:
    """What the routes share, kept on ``app.state.executions`` by create_app."""

    service: MaiSafety
    runs: Runs
    max_wait_s: float
    slots: StreamSlots
    stopping: threading.Event
    submissions: Submissions = field(default_factory=Submissions)

    async def awaited(self, future: Future[ExecutionReport], execution_id: str, who: Principal, wait_s: float | None) -> Any:
        """The run's report if it ends within the wait, else its ``202``; awaited on the event loop:
        the run's thread hands its report to the loop, not to a worker thread that hands it on (a
        wake-up less on a pooled run's path, issue #29)."""
        done = asyncio.wrap_future(future)
        done.add_done_callback(lambda ended: ended.cancelled() or ended.exception())  # read, if nobody waits on it now
        try:
            report = await asyncio.wait_for(asyncio.shield(done), self.bound(wait_s))
        except asyncio.TimeoutError:
            return await run_in_threadpool(self.pending, execution_id, who)
        return report_response(report)

    def bound(self, wait_s: float | None) -> float:
        return self.max_wait_s if wait_s is None else min(wait_s, self.max_wait_s)

    def pending(self, execution_id: str, who: Principal) -> Any:
        """The answer to a submission still running past its wait: its status now, ``202``."""
        with as_principal(who):
            try:
                status = self.service.report(execution_id).status
            except ExecutionNotFound:
                status = ASSESSING  # not yet recorded: the assessment is still running
        return pending_answer(execution_id, status)

    def report_or_pending(self, execution_id: str, who: Principal) -> Any:
        """The execution's report; while it is still being assessed, its submitter's ``202``
        (``assessing``), or the error its submission ended with before anything was recorded."""
        pending = self.submissions.of(execution_id, who.name)
        with as_principal(who):
            try:
                return report_response(self.service.report(execution_id))
            except ExecutionNotFound:
                if pending is None:
                    raise
                if not pending.done():
                    return pending_answer(execution_id, ASSESSING)
                failure = pending.failure()
                if failure is not None and of_the_moment(failure):
                    # What the moment refused is not this id's answer now: nothing is recorded under it.
                    raise ExecutionNotFound(
                        f"nothing was recorded under execution {execution_id}: its submission ended before anything was "
                        f"recorded ({failure}); submit it again (the same Idempotency-Key runs it afresh)"
                    ) from None
                if failure is not None:
                    raise failure from None
                return report_response(self.service.report(execution_id))  # recorded meanwhile

    async def answer(self, execution_id: str, who: Principal, wait_s: float | None, work: Callable[[], ExecutionReport]) -> Any:
        """Start ``work`` (an answer to the gate that runs the code) as the run of ``execution_id``,
        and await it as a submission is awaited."""

        def start() -> Future[ExecutionReport]:
            with as_principal(who):
                return self.runs.start(execution_id, work)

        future = await run_in_threadpool(start)
        return await self.awaited(future, execution_id, who, wait_s)


#: An execution's report rendered as the routes' ``response_model`` renders it (the same JSON),
#: without FastAPI validating again, on a thread of its pool, what the application just built: about
#: a millisecond of a pooled run's answer. tests/integration/test_openapi_contract.py holds the
#: answers to the schema.
_REPORT = TypeAdapter(ExecutionReport)


def report_response(report: ExecutionReport) -> Response:
    return Response(_REPORT.dump_json(report), media_type="application/json")


def pending_answer(execution_id: str, status: str) -> JSONResponse:
    return JSONResponse(
        PendingExecution(execution_id=execution_id, status=status).model_dump(),
        status_code=202,
        headers={"Location": f"/v1/executions/{execution_id}"},
    )


def _state(request: Request) -> ExecutionRoutesState:
    state: ExecutionRoutesState = request.app.state.executions
    return state


router = APIRouter()


# JSON may carry lone surrogates ("\ud800"); kept as bytes, the domain refuses them as not UTF-8 (422).


@router.post("/v1/assessments", tags=["executions"], response_model=AssessmentReport)
def assess(request: Request, body: AssessmentRequest, who: Caller) -> AssessmentReport:
    """The verdict alone: nothing is recorded and nothing runs."""
    with as_principal(who):
        return _state(request).service.assess(body.code.encode("utf-8", "surrogatepass"), provenance=body.provenance, source="the request's code")


@router.post(
    "/v1/executions",
    tags=["executions"],
    response_model=ExecutionReport,
    responses={202: {"model": PendingExecution}, **problem_responses(409, 429)},
)
async def submit(
    request: Request,
    body: ExecutionRequest,
    who: Caller,
    idempotency_key: Annotated[str | None, Header(max_length=200, pattern=r"^[\x21-\x7e]+$")] = None,
) -> Any:
    """Assess, record, and run if the gate allows, answering with the finished execution
    (HIGH and BLOCKED code: ``awaiting_override``). A retry with the same ``Idempotency-Key``
    returns the first execution and records nothing new."""
    state = _state(request)

    def begin() -> tuple[str, Future[ExecutionReport]]:
        # On a worker thread: a retry's id is read from the ledger, the files are decoded.
        code = body.code.encode("utf-8", "surrogatepass")
        files = decoded_files(body.files)
        limits = RequestedLimits(**body.limits.model_dump())
        caller = {"task_id": body.task_id or "", "session_id": body.session_id or "", "on_behalf_of": body.on_behalf_of or ""}
        with as_principal(who):
            execution_id = (
                state.service.submission_id(uuid5(IDEMPOTENCY_NAMESPACE, f"{who.name}\n{idempotency_key}"))
                if idempotency_key
                else uuid4()
            )
            future = state.runs.start(
                str(execution_id),
                lambda: state.service.run(
                    code,
                    provenance=body.provenance,
                    requested=limits,
                    source="the request's code",
                    network=body.network,
                    requirements=body.requirements,
                    caller=caller,
                    execution_id=execution_id,
                    revises=body.revises,
                    files=files,
                    image=body.image,
                ),
            )
        state.submissions.add(str(execution_id), who.name, future)
        return str(execution_id), future

    execution_id, future = await run_in_threadpool(begin)
    return await state.awaited(future, execution_id, who, body.wait_s)


@router.get(
    "/v1/executions/{execution_id}",
    tags=["executions"],
    response_model=ExecutionReport,
    responses={202: {"model": PendingExecution, "description": "its submitter's, while it is still being assessed (status assessing)"}},
)
def read(request: Request, execution_id: str, who: Caller) -> Any:
    """The execution's report. From the moment ``POST /v1/executions`` handed out its id, before
    anything is recorded, its submitter gets ``202`` with status ``assessing``; others a 404."""
    return _state(request).report_or_pending(execution_id, who)


@router.get("/v1/executions/{execution_id}/events", tags=["executions"])
def events(request: Request, execution_id: str, who: Caller) -> list[dict[str, Any]]:
    """The execution's events in order, each with its actor, its ledger position and both chain hashes."""
    with as_principal(who):
        return _state(request).service.history(execution_id, with_hashes=True)


@router.get(
    "/v1/executions/{execution_id}/stream",
    tags=["executions"],
    response_model=None,
    responses={
        200: {"content": {"text/event-stream": {"schema": {"type": "string"}}}, "description": "server-sent events: state, recorded, sample, output, dropped, end (then it closes), or closing"},
        **problem_responses(429),
    },
)
def stream(request: Request, execution_id: str, who: Caller) -> EventStream:
    """The execution as server-sent events: ``state``, then its recorded events (``sample``
    for each resource sample, ``recorded`` for the others) and its output as it comes
    (``output``; ``dropped`` when this reader fell behind), and finally ``end`` with its
    report, after which the stream closes. An execution that has ended sends what was
    recorded and its end at once. Visible as the execution is; nothing is recorded."""
    state = _state(request)
    pending = state.submissions.of(execution_id, who.name)
    watch = _open_watch(state, execution_id, who, pending)
    try:
        state.slots.take(who.name)
    except BaseException:
        if watch is not None:
            watch.close()
        raise
    opened = [watch] if watch is not None else []

    def closed() -> None:
        for each in opened:
            each.close()
        state.slots.give_back(who.name)

    if watch is not None:
        return EventStream(follow(watch, state.stopping), closed)
    assert pending is not None
    return EventStream(
        follow_submission(execution_id, pending, lambda: _open_watch(state, execution_id, who, pending), opened.append, state.stopping),
        closed,
    )


def _open_watch(state: ExecutionRoutesState, execution_id: str, who: Principal, pending: PendingSubmission | None) -> ExecutionWatch | None:
    """The execution's watch; None while it is its submitter's and not yet recorded."""
    with as_principal(who):
        try:
            return state.service.watch(execution_id)
        except ExecutionNotFound:
            if pending is None:
                raise
            return None


@router.post("/v1/executions/{execution_id}/confirm", tags=["gate"], response_model=ExecutionReport, responses={202: {"model": PendingExecution}, **problem_responses(409, 429)})
async def confirm(request: Request, execution_id: str, who: Caller, body: ConfirmRequest | None = None) -> Any:
    """Confirm HIGH code (role ``approver``; never its submitter), then run it."""
    body = body or ConfirmRequest()
    return await _state(request).answer(
        execution_id, who, body.wait_s,
        lambda: _state(request).service.approve(execution_id, body.explanation, kind="confirmation", on_behalf_of=body.on_behalf_of),
    )


@router.post("/v1/executions/{execution_id}/override", tags=["gate"], response_model=ExecutionReport, responses={202: {"model": PendingExecution}, **problem_responses(409, 429)})
async def override(request: Request, execution_id: str, body: OverrideRequest, who: Caller) -> Any:
    """Override BLOCKED code with a written explanation (role ``security-officer``; never its submitter), then run it."""
    return await _state(request).answer(
        execution_id, who, body.wait_s,
        lambda: _state(request).service.approve(execution_id, body.explanation, kind="override", on_behalf_of=body.on_behalf_of),
    )


@router.post("/v1/executions/{execution_id}/deny", tags=["gate"], response_model=ExecutionReport, responses=problem_responses(409))
def deny(request: Request, execution_id: str, who: Caller, body: DenyRequest | None = None) -> ExecutionReport:
    """Refuse a waiting execution: it ends unrun (the role that could have answered it)."""
    with as_principal(who):
        return _state(request).service.deny(execution_id, (body or DenyRequest()).reason)


@router.post("/v1/executions/{execution_id}/cancel", tags=["gate"], response_model=ExecutionReport, responses=problem_responses(409))
def cancel(request: Request, execution_id: str, who: Caller) -> ExecutionReport:
    """Stop a waiting or running execution (its submitter, an approver or a security officer)."""
    with as_principal(who):
        return _state(request).service.cancel(execution_id)

