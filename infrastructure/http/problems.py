"""Every error the service answers with, as an RFC 9457 problem (``application/problem+json``):
one place maps our exception tree, the request's validation and the ledger's failures to a status.
Never a traceback: an error we did not foresee is a 500 with one line."""

from __future__ import annotations

import logging
from typing import Any

from eventsourcing.persistence import IntegrityError, PersistenceError
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from mai_safety.application.errors import (
    CannotVerify,
    ConfigurationError,
    ExecutionLeftOpen,
    InvalidPolicy,
    ExecutionNotFound,
    IdempotencyConflict,
    LedgerUnavailable,
    NotAuthenticated,
    SandboxUnavailable,
    TokenNotFound,
    WriteContended,
    InvalidQuery,
)
from mai_safety.domain.errors import (
    DomainError,
    ExplanationMissing,
    InvalidTransition,
    KnownMaliciousRequirement,
    LimitOutOfPolicy,
    MaiSafetyError,
    SubmissionTooLarge,
)
from mai_safety.domain.files import InputFilesTooLarge, InvalidInputFile
from mai_safety.domain.images import ImageNotAllowed
from mai_safety.domain.session import TooManySessions
from mai_safety.application.sessions import SessionNotFound
from mai_safety.domain.gate import AnswerTooLate, NotPermitted
from mai_safety.domain.limits import HostBusy
from mai_safety.domain.network import NetworkNotAllowed
from mai_safety.domain.run_request import RequestNoLongerGranted

PROBLEM_JSON = "application/problem+json"
#: Seconds a caller should wait before trying again when the host has no room.
RETRY_AFTER_S = 10

log = logging.getLogger("mai_safety.http")


class ServiceStopping(MaiSafetyError):
    """The service is draining (SIGTERM): it takes no new runs."""


class TooManyStreams(MaiSafetyError):
    """Over the server's or the principal's number of open event streams."""


#: Our errors, most specific first: (class, status, problem type, title).
_MAPPING: list[tuple[type[Exception], int, str, str]] = [
    (NotAuthenticated, 401, "not-authenticated", "No valid token"),
    (NotPermitted, 403, "not-permitted", "Not permitted"),
    (SessionNotFound, 404, "not-found", "No such session"),
    (ExecutionNotFound, 404, "not-found", "No such execution"),
    (TokenNotFound, 404, "not-found", "No such token"),
    (AnswerTooLate, 409, "answer-too-late", "The answer came too late"),
    (InvalidTransition, 409, "invalid-transition", "Not allowed in the execution's state"),
    (IdempotencyConflict, 409, "idempotency-conflict", "Idempotency-Key names other code"),
    (WriteContended, 409, "conflict", "Changed meanwhile"),
    (SubmissionTooLarge, 413, "too-large", "The code is too large"),
    (HostBusy, 429, "host-busy", "The host has no room now"),
    (TooManySessions, 429, "too-many-sessions", "Too many sessions open"),
    (TooManyStreams, 429, "too-many-streams", "Too many event streams open"),
    (SandboxUnavailable, 503, "sandbox-unavailable", "Docker does not answer"),
    (LedgerUnavailable, 503, "ledger-unavailable", "The ledger does not answer"),
    (ServiceStopping, 503, "service-stopping", "The service is stopping"),
    (DomainError, 422, "invalid-request", "The request cannot be accepted"),
    (InvalidPolicy, 422, "invalid-policy", "The policy does not validate"),
    (InvalidQuery, 422, "invalid-request", "The query cannot be answered"),
    (ConfigurationError, 500, "configuration", "The service is misconfigured"),
    (CannotVerify, 500, "cannot-verify", "The ledger cannot be checked"),
]


def of_the_moment(exc: BaseException) -> bool:
    """A refusal of the moment (no room on the host, the ledger or Docker not answering, the
    service stopping: 429 or 503), not of the request: asked again later, the same request may pass."""
    for cls, status, _kind, _title in _MAPPING:
        if isinstance(exc, cls):
            return status in (429, 503)
    return False


def problem(status: int, kind: str, title: str, detail: str, headers: dict[str, str] | None = None, **extra: Any) -> JSONResponse:
    body = {"type": f"urn:mai-safety:problem:{kind}", "title": title, "status": status, "detail": detail, **extra}
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def problem_for(exc: MaiSafetyError) -> JSONResponse:
    for cls, status, kind, title in _MAPPING:
        if isinstance(exc, cls):
            headers = None
            if status == 401:
                headers = {"WWW-Authenticate": 'Bearer realm="mai-safety"'}
            elif status == 429:
                headers = {"Retry-After": str(RETRY_AFTER_S)}
            elif status == 503:
                headers = {"Retry-After": str(RETRY_AFTER_S)}
            field = _field_of(exc)
            extra: dict[str, Any] = {"field": field} if field else {}
            if isinstance(exc, ExecutionLeftOpen):  # recorded before the ledger failed: which, and in what state
                extra = {"execution_id": exc.execution_id, "execution_status": exc.status}
            return problem(status, kind, title, exc.message, headers, **extra)
    return problem(500, "internal", "Internal error", f"{type(exc).__name__}: {exc.message}")


def _field_of(exc: MaiSafetyError) -> str | None:
    """The request's JSON field an error is about, where its fields say (the CLI names a flag)."""
    if isinstance(exc, LimitOutOfPolicy) and exc.limit is not None:
        return f"limits.{exc.limit}"
    if isinstance(exc, RequestNoLongerGranted) and exc.refusal is not None:
        return _field_of(exc.refusal)
    if isinstance(exc, ExplanationMissing):
        return "explanation"
    if isinstance(exc, NetworkNotAllowed):
        return "network"
    if isinstance(exc, KnownMaliciousRequirement):
        return "requirements"
    if isinstance(exc, (InvalidQuery, InvalidPolicy)):
        return exc.field
    if isinstance(exc, (InvalidInputFile, InputFilesTooLarge, ImageNotAllowed)):
        return exc.field
    return None


def _field_error(error: Any) -> dict[str, str]:
    """One of pydantic's errors as the field it is about and a message; a mapping's key that is
    refused (a policy file's name) is named, quoted, in the message of the mapping it is a key of."""
    loc = [part for part in error.get("loc", ()) if part != "body"]
    message = str(error.get("msg", "")).removeprefix("Value error, ")
    if len(loc) >= 2 and loc[-1] == "[key]":
        key, loc = loc[-2], loc[:-2]
        message = message if repr(key) in message else f"the name {key!r} is refused: {message}"
    return {"field": ".".join(str(part) for part in loc) or "body", "message": message}


def install(app: FastAPI) -> None:
    """Register the mapping on a FastAPI app."""

    async def ours(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, MaiSafetyError)
        return problem_for(exc)

    async def invalid(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = [_field_error(error) for error in exc.errors()]
        detail = "; ".join(f"{error['field']}: {error['message']}" for error in errors)
        return problem(422, "invalid-request", "The request is not valid", detail, field=errors[0]["field"] if errors else "body", errors=errors)

    async def http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        kind = {404: "not-found", 405: "method-not-allowed", 413: "too-large"}.get(exc.status_code, "http")
        return problem(exc.status_code, kind, str(exc.detail), str(exc.detail), dict(exc.headers or {}))

    async def ledger(request: Request, exc: Exception) -> JSONResponse:
        if isinstance(exc, IntegrityError):
            return problem(409, "conflict", "Changed meanwhile", "the execution changed while this request was answered: read it again and retry")
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return problem(503, "ledger-unavailable", "The ledger does not answer", f"the ledger failed ({text}): try again later", {"Retry-After": str(RETRY_AFTER_S)})

    async def internal(request: Request, exc: Exception) -> JSONResponse:
        log.error("internal error answering %s %s: %s: %s", request.method, request.url.path, type(exc).__name__, exc)
        return problem(500, "internal", "Internal error", f"internal error ({type(exc).__name__}): please report it")

    app.add_exception_handler(MaiSafetyError, ours)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(StarletteHTTPException, http)
    app.add_exception_handler(PersistenceError, ledger)
    app.add_exception_handler(Exception, internal)
