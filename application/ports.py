"""The ports the application depends on. Each states its contract; adapters live in infrastructure/.

A fake of each lives beside the unit tests (tests/unit/fakes.py) and subclasses it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from mai_safety.domain.assessment import Assessment, Submission
from mai_safety.domain.chain import ChainRecord
from mai_safety.domain.limits import ResourceLimits
from mai_safety.domain.supervision import Usage


class Assessor(ABC):
    """Turns a submission into an assessment. Never raises for bad code: a failure inside an
    analyzer becomes a finding and lifts the level to at least MEDIUM (fail closed)."""

    @abstractmethod
    def assess(self, submission: Submission) -> Assessment: ...


@dataclass(frozen=True)
class PreparedRun:
    """An isolated environment made ready (not yet running the code) for one execution, with the
    limits it really got after the host's room was taken into account, and why."""

    container_id: str
    image: str
    limits: ResourceLimits
    host: dict[str, Any] = field(default_factory=dict)
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
    violation: dict[str, Any] | None = None
    peaks: dict[str, Any] = field(default_factory=dict)
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
            "violation": self.violation,
            "peaks": self.peaks,
            "observations": self.observations,
        }


#: Called with every reading while the code runs; returning False stops the run (it was cancelled).
Observer = Callable[[Usage], bool]


class Sandbox(ABC):
    """Runs code in isolation under limits, watching it.

    ``prepare`` makes an isolated environment without starting the code, fitting the limits to the
    host's room (it may wait for room, or raise HostBusy); ``run`` starts the code, samples usage,
    ends the run the moment a limit is crossed and always returns an outcome; ``discard`` removes
    what ``prepare`` made and is safe to call twice. Failures of the engine raise SandboxUnavailable.
    """

    @abstractmethod
    def check_available(self) -> None: ...

    @abstractmethod
    def prepare(self, execution_id: str, code: str, limits: ResourceLimits, floor: ResourceLimits) -> PreparedRun: ...

    @abstractmethod
    def run(self, prepared: PreparedRun, observer: Observer) -> RunOutcome: ...

    @abstractmethod
    def discard(self, prepared: PreparedRun) -> None: ...

    @property
    @abstractmethod
    def supervisor_id(self) -> str:
        """Who supervises runs from this process, as recorded in Started."""

    @abstractmethod
    def is_orphaned(self, supervisor_id: str) -> bool:
        """True when that supervisor is known to be gone (so its runs are nobody's)."""

    @abstractmethod
    def remove_execution(self, execution_id: str) -> int:
        """Kill and remove whatever runs for that execution; return how many environments went."""

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
