"""One exception tree for everything a call can meet: the service's RFC 9457 problems, each status
its own class, and the transport's failures mapped at this edge (httpx's own never leak out)."""

from __future__ import annotations

from typing import Any


class MaiSafetyClientError(Exception):
    """The root: catch this to catch everything the client raises."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TokenError(MaiSafetyClientError):
    """No token, or a token file the client refuses to read (not a file, not yours, or readable by
    others: a token is a credential)."""


class TransportError(MaiSafetyClientError):
    """The service could not be reached or the connection dropped (after the retries allowed)."""


class Timeout(TransportError):
    """The service did not answer within the client's timeout."""


class AnswerTooLarge(MaiSafetyClientError):
    """An answer longer than the caller allowed (``PlainClient.export``'s ``max_bytes``): the
    client stopped reading it."""


class ProblemError(MaiSafetyClientError):
    """The service answered with an error: an RFC 9457 problem (or, from something in front of it,
    a bare error status). ``status``, ``type``, ``title``, ``detail`` and the whole ``problem``."""

    status: int = 0

    def __init__(self, status: int, problem: dict[str, Any], retry_after: float | None = None) -> None:
        self.status = status
        self.problem = problem
        self.type: str = str(problem.get("type", "about:blank"))
        self.title: str = str(problem.get("title", ""))
        self.detail: str = str(problem.get("detail", "") or self.title or f"HTTP {status}")
        self.retry_after = retry_after
        super().__init__(f"{status} {self.title}: {self.detail}" if self.title and self.title != self.detail else f"{status}: {self.detail}")


class NotAuthenticated(ProblemError):
    """401: no token, a wrong one, or a revoked one."""


class NotPermitted(ProblemError):
    """403: the token's role may not do this (a submitter never answers its own gate)."""


class NotFound(ProblemError):
    """404: no such execution, or another submitter's."""


class Conflict(ProblemError):
    """409: a transition the execution does not allow, an answer too late, or an Idempotency-Key
    reused for other code."""


class TooLarge(ProblemError):
    """413: the code or the body is over the service's limit."""


class InvalidRequest(ProblemError):
    """422: a bad field; ``errors`` names each (field, message) where the service said."""

    @property
    def errors(self) -> list[dict[str, Any]]:
        return list(self.problem.get("errors", []))


class HostBusy(ProblemError):
    """429: the host has no room now; ``retry_after`` says how many seconds to wait."""


class ServerError(ProblemError):
    """5xx: the service (or something in front of it) failed."""


class ServiceUnavailable(ServerError):
    """503: Docker or the ledger does not answer, or the service is stopping; ``retry_after``."""


_BY_STATUS: dict[int, type[ProblemError]] = {
    401: NotAuthenticated,
    403: NotPermitted,
    404: NotFound,
    409: Conflict,
    413: TooLarge,
    422: InvalidRequest,
    429: HostBusy,
    503: ServiceUnavailable,
}


def error_for(status: int, problem: dict[str, Any], retry_after: float | None) -> ProblemError:
    """The exception for an error status: its own class, 5xx as ServerError, any other as ProblemError."""
    cls = _BY_STATUS.get(status) or (ServerError if status >= 500 else ProblemError)
    return cls(status, problem, retry_after)
