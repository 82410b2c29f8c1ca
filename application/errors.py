"""Errors of the ports: what can go wrong outside the domain, already in our own words.

    MaiSafetyError (domain.errors)
    ├── SandboxUnavailable      the container engine does not answer or refuses
    ├── LedgerUnavailable       the event store does not answer
    │   └── ExecutionLeftOpen   ... after an execution was recorded: names it and its state
    ├── ConfigurationError      a setting or a policy file is wrong
    ├── ExecutionNotFound       no execution has that id
    ├── CannotVerify            the ledger cannot be checked as asked (no public key, an
    │                           unreadable bundle or kept checkpoint)
    ├── NotAuthenticated        service mode: no token, or an unknown, wrong or revoked one
    ├── IdempotencyConflict     an Idempotency-Key already names an execution of other code
    ├── TokenNotFound           no active token has that id or principal
    ├── WriteContended          every attempt of a write met another writer (application.retry)
    └── InvalidQuery            a read model's filter: an unknown value, an impossible period

The exit status each gets on the command line is infrastructure/exit_codes.py's to say, the HTTP
status the service's (infrastructure/http/problems.py).
"""

from __future__ import annotations

from mai_safety.domain.errors import MaiSafetyError


class SandboxUnavailable(MaiSafetyError):
    """The container engine does not answer, or refuses what a run needs."""


class LedgerUnavailable(MaiSafetyError):
    """The event store does not answer."""


class ExecutionLeftOpen(LedgerUnavailable):
    """The ledger failed after an execution was recorded: it names that execution and the state
    it was last recorded in (recovery ends it; a retry with the same key finds it)."""

    def __init__(self, message: str, *, execution_id: str, status: str) -> None:
        super().__init__(message)
        self.execution_id = execution_id
        self.status = status


class ConfigurationError(MaiSafetyError):
    """A setting or a policy file is wrong."""


class InvalidPolicy(ConfigurationError):
    """A policy folder offered to ``policy validate`` or ``policy apply`` is wrong or weakens a hard
    rule: the caller's input, not the service's configuration (nothing was changed). ``field``: the
    request's field it is about, where one is (``files``: a file's name)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class ExecutionNotFound(MaiSafetyError):
    """No execution has that id."""


class CannotVerify(MaiSafetyError):
    """The ledger cannot be checked as asked."""


class NotAuthenticated(MaiSafetyError):
    """Service mode: no token, or an unknown, wrong or revoked one."""


class IdempotencyConflict(MaiSafetyError):
    """An Idempotency-Key already names an execution of other code."""


class TokenNotFound(MaiSafetyError):
    """No active token has that id or principal."""


class WriteContended(MaiSafetyError):
    """Every attempt to record a command met a concurrent write to the same aggregate: nothing of
    it was kept; the caller may read again and retry (application.retry)."""


class InvalidQuery(MaiSafetyError):
    """A question to the read models cannot be answered as asked: ``field`` names the filter."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field
