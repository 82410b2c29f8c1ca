"""The exception tree of mai-safety.

    MaiSafetyError                  every error we raise; carries a message a person can act on
    ├── DomainError                 a rule of the domain was broken
    │   ├── InvalidSubmission       the code cannot be accepted (empty, NUL byte, not UTF-8, too large)
    │   │   └── SubmissionTooLarge  over the size limit (the service answers 413, not 422)
    │   ├── LimitOutOfPolicy        a requested limit is not allowed by the policy
    │   └── InvalidTransition       a command does not fit the execution's current state
    └── (application.errors)        ports' failures: sandbox, ledger, configuration

Adapters translate third-party exceptions into these at their edge (``raise ... from exc``), so the
application and the CLI only ever see this tree. They say what went wrong; the exit status a
shell sees is the command line's to choose (infrastructure/exit_codes.py).
"""

from __future__ import annotations


class MaiSafetyError(Exception):
    """Base of every error mai-safety raises on purpose."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class DomainError(MaiSafetyError):
    """A rule of the domain was broken."""


class InvalidSubmission(DomainError):
    """The submitted code cannot be accepted as it is."""


class SubmissionTooLarge(InvalidSubmission):
    """The submitted code is over the size limit."""


class LimitOutOfPolicy(DomainError):
    """A requested resource limit is outside what the policy allows."""


class InvalidTransition(DomainError):
    """A command that does not fit the execution's current state."""
