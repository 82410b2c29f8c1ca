"""An assessor built when it is first asked to assess: a one-shot command that reads the ledger
(``history``, ``executions``, ``cancel``...) never imports Bandit or starts Semgrep; a command that
assesses pays for them once, at its first submission (issue #29: no command imports what it does
not use)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from mai_safety.application.ports import Assessor
from mai_safety.domain.assessment import Assessment, Submission


class AssessorOnFirstUse(Assessor):
    """Stands for the assessor ``build`` makes, and makes it at the first ``assess``. A
    configuration error (a wrong analysis policy, a missing engine) is raised there, before
    anything about the submission is recorded, as it would have been at the start."""

    def __init__(self, build: Callable[[], Assessor]) -> None:
        self._build = build
        self._built: Assessor | None = None
        self._lock = threading.Lock()

    def _assessor(self) -> Assessor:
        with self._lock:
            if self._built is None:
                self._built = self._build()
            return self._built

    def assess(self, submission: Submission) -> Assessment:
        return self._assessor().assess(submission)

    def only(self, *names: str) -> Assessor:
        """Some of its analyzers, built when first used (a session's whole program: decision 0040)."""

        def build() -> Assessor:
            built = self._assessor()
            only = getattr(built, "only", None)
            return only(*names) if only is not None else built

        return AssessorOnFirstUse(build)

    def assess_many(self, submissions: list[Submission]) -> list[Assessment]:
        return self._assessor().assess_many(submissions)

    def close(self) -> None:
        with self._lock:
            built, self._built = self._built, None
        if built is not None:
            built.close()
