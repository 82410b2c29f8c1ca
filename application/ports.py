"""The ports the application depends on. Each states its contract; adapters live in infrastructure/.

A fake of each lives beside the unit tests (tests/unit/fakes.py) and subclasses it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from mai_safety.domain.assessment import Assessment, Submission
from mai_safety.domain.chain import ChainRecord
from mai_safety.domain.limits import ResourceLimits


class Assessor(ABC):
    """Turns a submission into an assessment. Never raises for bad code: a failure inside an
    analyzer becomes a finding and lifts the level to at least MEDIUM (fail closed)."""

    @abstractmethod
    def assess(self, submission: Submission) -> Assessment: ...


@dataclass(frozen=True)
class PreparedRun:
    """A container created (not started) for one execution."""

    container_id: str
    image: str
    handle: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class RunOutcome:
    """How a run ended. ``termination_reason`` is None when the program ran to its own end."""

    exit_code: int | None
    stdout: str
    stderr: str
    output_bytes: int
    output_truncated: bool
    duration_s: float
    termination_reason: str | None = None
    detail: str = ""
    observations: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "exit_code": self.exit_code,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "output_bytes": self.output_bytes,
            "output_truncated": self.output_truncated,
            "duration_s": round(self.duration_s, 4),
            "detail": self.detail,
            "observations": self.observations,
        }


class Sandbox(ABC):
    """Runs code in isolation under limits.

    ``prepare`` creates an isolated environment without starting the code; ``run`` starts it,
    enforces every limit and always returns an outcome; ``discard`` removes what ``prepare`` made
    and is safe to call twice. Failures of the engine raise ``SandboxUnavailable``.
    """

    @abstractmethod
    def check_available(self) -> None: ...

    @abstractmethod
    def prepare(self, execution_id: str, code: str, limits: ResourceLimits) -> PreparedRun: ...

    @abstractmethod
    def run(self, prepared: PreparedRun, limits: ResourceLimits) -> RunOutcome: ...

    @abstractmethod
    def discard(self, prepared: PreparedRun) -> None: ...

    @abstractmethod
    def remove_leftovers(self) -> int:
        """Remove environments left by supervisors that no longer live; return how many."""

    def close(self) -> None:
        """Release connections to the engine."""


class ChainSource(ABC):
    """Reads the ledger with both hashes of every event, in ledger order."""

    @abstractmethod
    def select_chain(self, after_position: int, limit: int) -> list[ChainRecord]: ...

    def iter_chain(self, after_position: int = 0, page: int = 1000) -> Iterator[ChainRecord]:
        while True:
            records = self.select_chain(after_position, page)
            yield from records
            if len(records) < page:
                return
            after_position = records[-1].position
