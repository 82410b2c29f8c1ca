"""Errors of the ports: what can go wrong outside the domain, already in our own words.

    MaiSafetyError (domain.errors)
    ├── SandboxUnavailable      the container engine does not answer or refuses   exit 5
    ├── LedgerUnavailable       the event store does not answer                   exit 5
    ├── ConfigurationError      a setting or a policy file is wrong               exit 6
    ├── ExecutionNotFound       no execution has that id                          exit 2
    ├── CannotVerify            the ledger cannot be checked as asked (no public  exit 2
    │                           key, an unreadable bundle or kept checkpoint)
    ├── NotAuthenticated        service mode: no token, or an unknown, wrong or   exit 7
    │                           revoked one
    ├── IdempotencyConflict     an Idempotency-Key already names an execution of  exit 2
    │                           other code
    └── TokenNotFound           no active token has that id or principal          exit 2
"""

from __future__ import annotations

from mai_safety.domain.errors import MaiSafetyError


class SandboxUnavailable(MaiSafetyError):
    exit_code = 5


class LedgerUnavailable(MaiSafetyError):
    exit_code = 5


class ConfigurationError(MaiSafetyError):
    exit_code = 6


class ExecutionNotFound(MaiSafetyError):
    exit_code = 2


class CannotVerify(MaiSafetyError):
    exit_code = 2


class NotAuthenticated(MaiSafetyError):
    exit_code = 7


class IdempotencyConflict(MaiSafetyError):
    exit_code = 2


class TokenNotFound(MaiSafetyError):
    exit_code = 2
