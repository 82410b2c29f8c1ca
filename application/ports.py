"""The ports the application depends on. Each states its contract; adapters live in infrastructure/.
The ledger's own ports live in its wing (ledger/application/ports.py) and are named here through
its door, for the code and the fakes that import them from here.

A fake of each lives beside the unit tests (tests/unit/fakes.py) and subclasses it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mai_safety.domain.assessment import Assessment, Submission
from mai_safety.domain.limits import ResourceLimits
from mai_safety.domain.network import NetworkRequest
from mai_safety.domain.payloads import OutcomeRecord, RuntimeRecord
from mai_safety.domain.session import EarlierCells
from mai_safety.domain.supervision import Usage


class Assessor(ABC):
    """Turns a submission into an assessment. Never raises for bad code: a failure inside an
    analyzer becomes a finding and lifts the level to at least MEDIUM (fail closed)."""

    @abstractmethod
    def assess(self, submission: Submission) -> Assessment: ...

    def assess_many(self, submissions: list[Submission]) -> list[Assessment]:
        """Several at once; adapters that can read a batch in one go do so."""
        return [self.assess(submission) for submission in submissions]

    def close(self) -> None:
        """Release what the analyzers hold (engine processes)."""


class CellContext(ABC):
    """A session's earlier cells as its next cell is judged with them (issue #27). Given each cell
    that ran, in order, it answers which of their statements a new cell depends on: names it reads,
    and how those were bound, and what the earlier cells established that the rules over a whole
    program combine. The work of judging a cell follows what it reaches, not the session's length."""

    @abstractmethod
    def earlier(self, code: str) -> EarlierCells:
        """The earlier statements ``code`` is to be judged with (nothing before the first cell ran)."""

    @abstractmethod
    def add(self, code: str, acting_lines: Callable[[str], set[int] | None]) -> None:
        """``code`` ran: it joins what later cells are judged with. ``acting_lines`` says which lines of
        a program establish something beyond their names (None: it cannot tell, so every line does)."""


@dataclass(frozen=True)
class PreparedRun:
    """An isolated environment made ready (not yet running the code) for one execution, with the
    limits it really got after the host's room was taken into account, and why."""

    container_id: str
    image: str
    limits: ResourceLimits
    host: dict[str, Any] = field(default_factory=dict)
    handle: Any = field(default=None, compare=False, repr=False)
    #: The runtime the run really got: {"name", "requested"} and a "note" when ``auto`` fell back.
    runtime: RuntimeRecord = field(default_factory=lambda: RuntimeRecord())


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
    #: The files the code created or changed in its working directory, as collected (name, bytes):
    #: kept as blobs and named on the ending event (``files_out``), never in ``to_dict``.
    files_out: tuple[tuple[str, bytes], ...] = ()
    #: What the run was observed to do from outside the code (domain.observed, decision 0044), or
    #: None: kept beside the outcome on the ending event, never in ``to_dict``.
    observed: Any = None

    def to_dict(self) -> OutcomeRecord:
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
#: Called from the output's capture with ("stdout" | "stderr", the bytes kept) as they come; it
#: must return at once (it runs on the capture's thread) and what it raises is ignored.
OutputListener = Callable[[str, bytes], None]


class Sandbox(ABC):
    """Runs code in isolation under limits, watching it.

    ``prepare`` makes an isolated environment without starting the code, fitting the limits to the
    host's room (it may wait for room, or raise HostBusy), under the ``runtime`` the trust level's
    profile names (runc, runsc or auto: see domain.limits.RUNTIMES); ``run`` starts the code, samples usage,
    ends the run the moment a limit is crossed and always returns an outcome; ``discard`` removes
    what ``prepare`` made and is safe to call twice. Failures of the engine raise SandboxUnavailable.
    """

    @abstractmethod
    def check_available(self) -> None: ...

    @abstractmethod
    def prepare(
        self,
        execution_id: str,
        code: str,
        limits: ResourceLimits,
        floor: ResourceLimits,
        network: NetworkRequest = NetworkRequest(),
        runtime: str = "runc",
        *,
        files: Mapping[str, bytes] | None = None,
        image: str = "default",
    ) -> PreparedRun:
        """``files``: name (checked, domain.files) to bytes, placed in the run's working directory
        before the code starts; passed only when there are some. ``image``: a named sandbox image
        (domain.images), passed only when not the default."""

    @abstractmethod
    def run(self, prepared: PreparedRun, observer: Observer, output: OutputListener | None = None) -> RunOutcome:
        """``output``, when given, hears the program's own output as it is captured (not pip's)."""

    @abstractmethod
    def discard(self, prepared: PreparedRun) -> None: ...

    def describe_images(self) -> dict[str, Any]:
        """The images a run may have, by name (``default`` and the policy's): tag, and whether present."""
        return {}

    def pool_status(self) -> dict[str, Any]:
        """Per profile, how many pre-started containers the sandbox keeps and how many wait now
        (empty where it keeps none)."""
        return {}

    @property
    @abstractmethod
    def supervisor_id(self) -> str:
        """Who supervises runs from this process, as recorded in Started."""

    @abstractmethod
    def is_orphaned(self, supervisor_id: str) -> bool:
        """True when that supervisor is known to be gone (so its runs are nobody's)."""

    def orphaned_executions(self) -> list[str]:
        """Ids of executions whose environment was left by a supervisor that no longer lives,
        including ones it never recorded as started."""
        return []

    def describe_execution(self, execution_id: str) -> dict[str, Any]:
        """What can still be read of that execution's environment (state, how long it ran, how it
        ended), for the record of a run nobody supervised to the end; empty when nothing is left."""
        return {}

    def describe_runtimes(self) -> dict[str, Any]:
        """The runtimes the engine offers beyond its default, as {name: what is known of it}."""
        return {}

    @abstractmethod
    def remove_execution(self, execution_id: str) -> int:
        """Kill and remove whatever runs for that execution; return how many environments went."""

    @abstractmethod
    def remove_leftovers(self) -> int:
        """Remove environments left by supervisors that no longer live; return how many."""

    def close(self) -> None:
        """Release connections to the engine."""


class PackageIndex(ABC):
    """Where a run's dependencies come from: the user's configured package indexes (their URLs and
    hosts), and the rule a requirement must meet (raises InvalidSubmission naming the entry)."""

    @abstractmethod
    def index_urls(self) -> tuple[str, ...]: ...

    @abstractmethod
    def hosts(self) -> tuple[str, ...]: ...

    @abstractmethod
    def check_requirement(self, entry: str) -> str: ...


# The ledger's ports, through the wing's door (mai_safety.ledger).
from mai_safety.ledger import (  # noqa: E402
    BlobStore,
    BlobTooLarge,
    ChainSource,
    KeyStore,
    Ledger,
    LedgerHead,
    ProcessWorkLock,
    PublicKey,
    Sealer,
    Signer,
    WitnessedCheckpoint,
    Witnesses,
    WorkLock,
)

__all__ = [
    "Assessor", "BlobStore", "BlobTooLarge", "ChainSource", "KeyStore", "Ledger", "LedgerHead", "Observer",
    "OutputListener", "PackageIndex", "PreparedRun", "ProcessWorkLock", "PublicKey", "RunOutcome", "Sandbox",
    "Sealer", "Signer", "WitnessedCheckpoint", "Witnesses", "WorkLock",
]
