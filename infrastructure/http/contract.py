"""The OpenAPI document as the service's contract (docs/decisions/0041): every problem a route can
answer is declared with its status and ``application/problem+json``, so that a generated client
or a fuzzer reading ``/openapi.json`` meets no status and no content type it was not told of.

What every route shares is declared here, from what the route is: a token checked (401, 403), a
body read (400 unparsable, 413 over the limit), its parameters validated (422), an execution in its
path (404), and the ledger or the host that may not answer (500, 503). What only some routes give
(409 and 429) they declare themselves, with ``problem_responses``."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, ConfigDict, Field

from .problems import PROBLEM_JSON

#: What each status means here, said once for the document.
_WHY: dict[int, str] = {
    400: "the body is not JSON",
    401: "no valid token (WWW-Authenticate: Bearer)",
    403: "the token's roles do not allow it",
    404: "no such execution or session (or not visible to this token), or no such file",
    409: "not allowed in the execution's or the session's state, answered too late, changed meanwhile, or an Idempotency-Key naming other code",
    413: "the body, the code or its files are over the service's limits",
    422: "the request is not valid (each field named), or the policy or the query cannot be accepted",
    429: "no room on the host now, too many event streams or sessions open (Retry-After)",
    500: "an error the service did not foresee, or a misconfiguration (one line, never a traceback)",
    503: "Docker or the ledger does not answer, or the service is stopping (Retry-After)",
}


class Problem(BaseModel):
    """An RFC 9457 problem: what went wrong, in one line, and where a field is at fault."""

    model_config = ConfigDict(extra="allow")

    type: str = Field(description="urn:mai-safety:problem:KIND")
    title: str
    status: int
    detail: str
    field: str | None = Field(default=None, description="the request's field at fault, where one is")


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for the problems a route gives beyond those every route shares."""
    return {status: {"description": _WHY[status], "content": {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}}} for status in statuses}


def declare(app: FastAPI, *, max_code_bytes: int) -> None:
    """Make ``app.openapi()`` the contract: the shared problems on every operation, the Problem
    schema, and the code's size bound the server was started with."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            schemas = document.setdefault("components", {}).setdefault("schemas", {})
            schemas["Problem"] = Problem.model_json_schema(ref_template="#/components/schemas/{model}")
            for name in ("HTTPValidationError", "ValidationError"):
                schemas.pop(name, None)
            for path, operations in document.get("paths", {}).items():
                for operation in operations.values():
                    _declare_problems(path, operation)
            for name in ("AssessmentRequest", "ExecutionRequest"):
                code = schemas.get(name, {}).get("properties", {}).get("code")
                if code is not None:
                    code["maxLength"] = max_code_bytes
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to shape the document


def _declare_problems(path: str, operation: dict[str, Any]) -> None:
    statuses = {500, 503}
    if operation.get("parameters") or "requestBody" in operation:
        statuses.add(422)
    if operation.get("security"):
        statuses |= {401, 403}
    if "requestBody" in operation:
        statuses |= {400, 413}
    if "{execution_id}" in path or "{session_id}" in path:
        statuses.add(404)
    responses = operation.setdefault("responses", {})
    for status, declared in problem_responses(*sorted(statuses)).items():
        responses[str(status)] = declared  # replaces FastAPI's own 422 (application/json)
