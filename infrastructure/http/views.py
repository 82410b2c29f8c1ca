"""The routes that read the views: ``GET /v1/executions``, ``/v1/pending`` and ``/v1/report``.
Each catches the views up first (cheap when the follower has), so an answer is as of the
ledger's head; who sees what is application.read_models'."""

# No ``from __future__ import annotations``: FastAPI reads the routes' annotations at runtime, and
# ``Caller`` (auth.py) is read then too.

from datetime import date, datetime, timezone
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request

from mai_safety.application.audit_figures import anchor_from
from mai_safety.application.read_models import ReadModels
from mai_safety.application.views import ExecutionFilter

from .auth import Caller, as_principal

Status = Literal["assessed", "awaiting_override", "overridden", "running", "completed", "terminated", "rejected"]
Level = Literal["LOW", "MEDIUM", "HIGH", "BLOCKED"]


def view_routes() -> APIRouter:
    router = APIRouter(tags=["views"])

    def models(request: Request) -> ReadModels:
        read_models: ReadModels = request.app.state.read_models
        return read_models

    @router.get("/v1/executions")
    def executions(
        request: Request,
        who: Caller,
        status: Status | None = None,
        level: Level | None = None,
        since: Annotated[datetime | None, Query(description="submitted at or after this moment")] = None,
        until: Annotated[datetime | None, Query(description="submitted before this moment, which is after since (else 422)")] = None,
        submitter: str | None = None,
        task: str | None = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 50,
        page: Annotated[int, Query(ge=1)] = 1,
    ) -> list[dict[str, Any]]:
        """Executions, newest first: a submitter sees only its own, the other roles all."""
        query = ExecutionFilter(
            status=status, level=level, since=_utc(since), until=_utc(until), submitter=submitter, task_id=task,
            limit=limit, page=page,
        )
        with as_principal(who):
            return [row.to_dict() for row in models(request).executions(query)]

    @router.get("/v1/pending")
    def pending(request: Request, who: Caller) -> list[dict[str, Any]]:
        """What waits for a confirmation or an override, its findings and the seconds left
        (approvers, security officers, auditors)."""
        with as_principal(who):
            return models(request).pending(datetime.now(timezone.utc))

    @router.get("/v1/report")
    def report(request: Request, who: Caller, since: date | None = None, until: date | None = None) -> dict[str, Any]:
        """The audit report over whole UTC days, with the ledger's head, its newest checkpoint
        and whether ``audit verify`` passed (auditors)."""
        with as_principal(who):
            read_models = models(request)
            read_models.check_report(since, until)
            service = request.app.state.service
            anchor = anchor_from(service.verify())
            now = datetime.now(timezone.utc)
            return read_models.report(anchor, since, until, now, policy_changes=service.policy_changes, run_files=service.run_files, diverged=service.diverged).to_dict()

    return router


def _utc(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).isoformat()
