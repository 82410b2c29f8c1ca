"""The command line's exit status for each of our errors: the one table.

The domain and the application say what went wrong, in their own exception types; which number a
shell sees is the command line's business, so it is decided here and nowhere else (the documented
list is in ``mai-safety --help`` and docs/user-guide.md, "Exit status"). Most specific first. Every command
line module (the local CLI, the thin client, audit, status) names its statuses from here; the
thin client imports nothing of the application, and the error types are read only when the table
is first used (by the local CLI): the thin client, started for one call, imports just the numbers.
"""

from __future__ import annotations

from functools import cache

from mai_safety.domain.errors import DomainError, MaiSafetyError

EXIT_OK, EXIT_PROGRAM_FAILED, EXIT_BAD_INPUT, EXIT_AWAITING, EXIT_TERMINATED = 0, 1, 2, 3, 4
EXIT_UNAVAILABLE, EXIT_CONFIGURATION, EXIT_NOT_PERMITTED = 5, 6, 7
EXIT_INTERNAL, EXIT_BUSY = 70, 75  # EX_SOFTWARE, EX_TEMPFAIL
EXIT_TAMPERED, EXIT_CANNOT_CHECK = 1, 2  # audit verify


@cache
def _by_error() -> tuple[tuple[type[MaiSafetyError], int], ...]:
    from mai_safety.application.errors import (
        CannotVerify,
        ConfigurationError,
        ExecutionNotFound,
        IdempotencyConflict,
        InvalidQuery,
        LedgerUnavailable,
        NotAuthenticated,
        SandboxUnavailable,
        TokenNotFound,
        WriteContended,
    )
    from mai_safety.domain.gate import AnswerTooLate, NotPermitted
    from mai_safety.domain.limits import HostBusy
    from mai_safety.domain.network import NetworkNotAllowed
    from mai_safety.domain.run_request import RequestNoLongerGranted
    from mai_safety.infrastructure.reports.errors import ReportNotWritten

    return (
        (NotPermitted, EXIT_NOT_PERMITTED),
        (NetworkNotAllowed, EXIT_NOT_PERMITTED),
        (RequestNoLongerGranted, EXIT_NOT_PERMITTED),
        (AnswerTooLate, EXIT_TERMINATED),
        (DomainError, EXIT_BAD_INPUT),
        (HostBusy, EXIT_BUSY),
        (WriteContended, EXIT_BUSY),
        (SandboxUnavailable, EXIT_UNAVAILABLE),
        (LedgerUnavailable, EXIT_UNAVAILABLE),
        (ConfigurationError, EXIT_CONFIGURATION),
        (ExecutionNotFound, EXIT_BAD_INPUT),
        (CannotVerify, EXIT_BAD_INPUT),
        (NotAuthenticated, EXIT_NOT_PERMITTED),
        (IdempotencyConflict, EXIT_BAD_INPUT),
        (TokenNotFound, EXIT_BAD_INPUT),
        (ReportNotWritten, EXIT_BAD_INPUT),
        (InvalidQuery, EXIT_BAD_INPUT),
    )  # the rest, LedgerTampered among them: 1 (EXIT_TAMPERED)


def exit_code_for(error: MaiSafetyError) -> int:
    """The documented exit status for ``error``; 1 for one the table does not name."""
    for kind, code in _by_error():
        if isinstance(error, kind):
            return code
    return 1  # LedgerTampered (EXIT_TAMPERED), and any error not named above
