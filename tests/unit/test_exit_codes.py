"""The command line's exit statuses, decided at its edge (infrastructure/exit_codes.py) as the
user guide's "Exit status" (docs/user-guide.md) documents them; the errors themselves carry no numbers."""

from __future__ import annotations

import pytest

from mai_safety.ledger.application.sealing import LedgerTampered
from mai_safety.application.errors import (
    CannotVerify,
    ConfigurationError,
    ExecutionNotFound,
    IdempotencyConflict,
    LedgerUnavailable,
    NotAuthenticated,
    SandboxUnavailable,
    TokenNotFound,
)
from mai_safety.domain.errors import InvalidSubmission, InvalidTransition, LimitOutOfPolicy, MaiSafetyError
from mai_safety.domain.gate import AnswerTooLate, NotPermitted
from mai_safety.domain.limits import HostBusy
from mai_safety.domain.network import NetworkNotAllowed
from mai_safety.domain.run_request import RequestNoLongerGranted
from mai_safety.infrastructure.cli.exit_codes import exit_code_for


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (InvalidSubmission, 2),
        (LimitOutOfPolicy, 2),
        (InvalidTransition, 2),
        (ExecutionNotFound, 2),
        (CannotVerify, 2),
        (IdempotencyConflict, 2),
        (TokenNotFound, 2),
        (AnswerTooLate, 4),
        (SandboxUnavailable, 5),
        (LedgerUnavailable, 5),
        (ConfigurationError, 6),
        (NotPermitted, 7),
        (NetworkNotAllowed, 7),
        (RequestNoLongerGranted, 7),
        (NotAuthenticated, 7),
        (HostBusy, 75),
        (LedgerTampered, 1),
        (MaiSafetyError, 1),
    ],
)
def test_each_error_gets_its_documented_exit_status(error: type[MaiSafetyError], status: int) -> None:
    assert exit_code_for(error("what went wrong")) == status


def test_no_error_of_ours_carries_an_exit_status_of_its_own() -> None:
    assert not hasattr(MaiSafetyError("x"), "exit_code")
