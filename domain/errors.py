"""The exception tree of mai-safety.

    MaiSafetyError                  every error we raise; carries a message a person can act on
    ├── DomainError                 a rule of the domain was broken
    │   ├── InvalidSubmission       the code cannot be accepted (empty, NUL byte, not UTF-8, too large)
    │   │   └── SubmissionTooLarge  over the size limit (the service answers 413, not 422)
    │   │   └── KnownMaliciousRequirement  a requirement the threat list names
    │   ├── LimitOutOfPolicy        a requested limit is not allowed by the policy
    │   ├── InvalidTransition       a command does not fit the execution's current state
    │   │   └── ExplanationMissing  an override of BLOCKED code without a written explanation
    │   ├── NotPermitted, AnswerTooLate (domain.gate), NetworkNotAllowed (domain.network),
    │   │   RequestNoLongerGranted (domain.run_request)
    └── (application.errors)        ports' failures: sandbox, ledger, configuration

Adapters translate third-party exceptions into these at their edge (``raise ... from exc``), so the
application and the CLI only ever see this tree. They say what went wrong; the exit status a
shell sees is the command line's to choose (infrastructure/cli/exit_codes.py).

The domain knows nothing of its callers: a message names no command-line flag, environment
variable or policy file. An error carries what went wrong as fields (the limit's name, the asked
and allowed values, the trust level, the allowed actors...), and each edge words it for its own
users: the CLI names its flags and the policy file to edit (infrastructure/cli/hints.py), the HTTP
API the JSON field (infrastructure/http/problems.py).
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
    """The submitted code is over the size limit: ``size`` bytes, of at most ``max_bytes``."""

    def __init__(self, message: str, *, size: int, max_bytes: int) -> None:
        super().__init__(message)
        self.size = size
        self.max_bytes = max_bytes


class KnownMaliciousRequirement(InvalidSubmission):
    """A requirement names a package on the threat list: nothing was fetched."""

    def __init__(self, message: str, *, requirement: str) -> None:
        super().__init__(message)
        self.requirement = requirement


class LimitOutOfPolicy(DomainError):
    """A requested resource limit is outside what the policy allows.

    ``limit``: the ``ResourceLimits`` field asked for (None when the error is about a size that
    could not be read); ``asked``: the value asked; ``allowed``: the most the policy gives
    ``trust`` code (None when the value was not positive)."""

    def __init__(
        self,
        message: str,
        *,
        limit: str | None = None,
        asked: float | None = None,
        allowed: float | None = None,
        trust: str | None = None,
    ) -> None:
        super().__init__(message)
        self.limit = limit
        self.asked = asked
        self.allowed = allowed
        self.trust = trust


class InvalidTransition(DomainError):
    """A command that does not fit the execution's current state."""


class ExplanationMissing(InvalidTransition):
    """Overriding BLOCKED code needs a written explanation, and none was given."""
