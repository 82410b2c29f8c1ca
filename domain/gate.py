"""The gate's rules: who may answer a confirmation or an override, and how long an answer may take."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from fnmatch import fnmatchcase

from .errors import DomainError


class NotPermitted(DomainError):
    """The acting person is not allowed to do this. When the gate's policy refused an answer:
    ``actor``, the ``answer_kind`` ("confirmation" or "override") and the ``allowed_actors``
    (the policy's patterns); otherwise (roles, in service mode) those are None."""

    def __init__(
        self,
        message: str,
        *,
        actor: str | None = None,
        answer_kind: str | None = None,
        allowed_actors: tuple[str, ...] | None = None,
    ) -> None:
        super().__init__(message)
        self.actor = actor
        self.answer_kind = answer_kind
        self.allowed_actors = allowed_actors


class AnswerTooLate(DomainError):
    """The confirmation or override came after the policy's answer time."""


@dataclass(frozen=True)
class GateRules:
    """Actors are matched as shell-style patterns (``security-*``, ``*@build-host``)."""

    confirmers: tuple[str, ...]
    overriders: tuple[str, ...]
    answer_within: timedelta

    def answer_by(self, now: datetime) -> datetime:
        return now + self.answer_within

    def check_may_answer(self, kind: str, actor: str) -> None:
        allowed = self.overriders if kind == "override" else self.confirmers
        if not any(fnmatchcase(actor, pattern) for pattern in allowed):
            what = "override BLOCKED code" if kind == "override" else "confirm HIGH code"
            raise NotPermitted(
                f"{actor!r} may not {what}: the policy allows {', '.join(allowed) or 'no one'}",
                actor=actor,
                answer_kind=kind,
                allowed_actors=tuple(allowed),
            )
