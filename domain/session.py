"""The ``Session`` aggregate: a live interpreter that keeps its state between cells (issue #27).

A session is opened by a submitter with its limits, image and network, its idle timeout and its
lifetime; each cell run in it is an ordinary ``Execution`` (its seven events) carrying the
session's id in its caller labels (``sandbox_session``, stamped by the service, never by the
caller), and the session records that the cell was added, how it ended and the working
directory's manifest at its end, when its interpreter was restarted, and why it ended.

The gate judges each cell in the light of the cells that ran before it (``judge_in_context``):
names bound earlier resolve, and the cell that completes a dangerous whole is rated for the whole.
As everywhere in the domain, nothing here does I/O; what is measured is passed in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypedDict
from uuid import UUID, uuid4

from eventsourcing.domain import Aggregate, event

from .assessment import Assessment, Finding
from .errors import DomainError, InvalidTransition
from .execution import actor_context
from .levels import RiskLevel

#: The caller label an Execution of a session carries: the session's id (set by the service).
SESSION_LABEL = "sandbox_session"
#: Who listed a cell's working directory: the session's interpreter, in the process the cells' code
#: runs in, so the code can change what it says. Self-reported, as a run's ``attempted`` is.
MANIFEST_BY_INTERPRETER = "interpreter (self-reported: the cells' code shares its process)"


class SessionStatus(str, Enum):
    OPEN = "open"
    WAITING = "waiting"  # a HIGH or BLOCKED cell waits for a person, and the session with it
    ENDED = "ended"


class EndReason(str, Enum):
    CALLER = "caller"
    IDLE = "idle"
    LIFETIME = "lifetime"
    LIMIT = "limit"
    SERVICE_STOP = "service_stop"
    RECOVERY = "recovery"
    SANDBOX_LOST = "sandbox_lost"  # its container is gone while the service still holds it


class ManifestEntry(TypedDict):
    """One file of the working directory at a cell's end."""

    name: str
    size: int
    sha256: str


class SessionLimitsRecord(TypedDict):
    """What a session was opened with (``SessionLimits.to_dict()``)."""

    idle_s: float
    lifetime_s: float
    max_cells: int
    cell_timeout_s: float
    cell_cpu_s: float
    total_cpu_s: float


class SessionClosed(InvalidTransition):
    """A cell or an answer for a session that has ended, or one that waits for a person."""


class TooManySessions(DomainError):
    """Past the bound of open sessions per principal or per host (HTTP 429)."""


@dataclass(frozen=True)
class SessionLimits:
    """A session's own bounds, beside the container's (memory, pids, disk, CPUs)."""

    idle_s: float = 300.0
    lifetime_s: float = 3600.0
    max_cells: int = 1000
    cell_timeout_s: float = 30.0
    cell_cpu_s: float = 15.0
    total_cpu_s: float = 600.0

    def to_dict(self) -> SessionLimitsRecord:
        return {
            "idle_s": self.idle_s, "lifetime_s": self.lifetime_s, "max_cells": self.max_cells,
            "cell_timeout_s": self.cell_timeout_s, "cell_cpu_s": self.cell_cpu_s, "total_cpu_s": self.total_cpu_s,
        }

    @classmethod
    def from_dict(cls, data: SessionLimitsRecord | dict[str, Any]) -> "SessionLimits":
        values: dict[str, Any] = dict(data)
        return cls(**{key: values[key] for key in cls.__dataclass_fields__ if key in values})

    def within(self, maximum: "SessionLimits") -> "SessionLimits":
        """These limits, none above ``maximum``'s (the policy's): a caller may ask for less, never more."""
        return SessionLimits(
            idle_s=min(self.idle_s, maximum.idle_s), lifetime_s=min(self.lifetime_s, maximum.lifetime_s),
            max_cells=min(self.max_cells, maximum.max_cells), cell_timeout_s=min(self.cell_timeout_s, maximum.cell_timeout_s),
            cell_cpu_s=min(self.cell_cpu_s, maximum.cell_cpu_s), total_cpu_s=min(self.total_cpu_s, maximum.total_cpu_s),
        )


@dataclass(frozen=True)
class SessionPolicy:
    """The most a session may ask for, and how many may be open at once: per principal, and per
    server (policies/limits.yaml ``sessions:``)."""

    limits: SessionLimits = SessionLimits()
    per_principal: int = 4
    per_host: int = 8


@dataclass(slots=True)
class CellEntry:
    """One cell as the session knows it."""

    execution_id: str
    level: str
    status: str = "added"  # added | waiting | ran | refused


class Session(Aggregate):
    """One live interpreter's life. Its event topics (``mai_safety.domain.session:Session.<Name>``)
    are hashed into the chains: neither this module nor these names may move."""

    class Event(Aggregate.Event):
        actor: str = field(default_factory=actor_context.get, init=False)

    class Opened(Aggregate.Created, Event):
        """Opened by ``owner`` (the token's principal, or the OS user), in ``container_id`` held by
        ``holder`` (the supervising process), with its image, runtime, network, trust profile, the
        container's limits and the session's own."""

        class_version = 1
        owner: str
        container_id: str
        holder: str
        image: str
        runtime: str
        network: str
        trust: str
        limits: dict[str, Any]
        session_limits: SessionLimitsRecord

    @event(Opened)
    def __init__(
        self, *, owner: str, container_id: str, holder: str, image: str, runtime: str, network: str, trust: str,
        limits: dict[str, Any], session_limits: SessionLimitsRecord,
    ) -> None:
        self.owner = owner
        self.container_id = container_id
        self.holder = holder
        self.image = image
        self.runtime = runtime
        self.network = network
        self.trust = trust
        self.limits = dict(limits)
        self.session_limits = SessionLimits.from_dict(session_limits)
        self.status = SessionStatus.OPEN
        self.cells: list[CellEntry] = []
        self._cell_at: dict[str, int] = {}  # a cell's place in ``cells``, by its execution's id
        self._workspace: list[ManifestEntry] = []  # as the last cell that ran left it (each cell's is in its event)
        self._workspace_by = MANIFEST_BY_INTERPRETER  # who listed it
        self.restarts: list[dict[str, str]] = []
        self.ended_reason: str | None = None
        self.ended_detail: str = ""

    @classmethod
    def open(
        cls, *, owner: str, container_id: str, holder: str, image: str, runtime: str, network: str, trust: str,
        limits: dict[str, Any], session_limits: SessionLimits, session_id: UUID | None = None,
    ) -> "Session":
        return cls._create(
            cls.Opened, id=session_id or uuid4(), owner=owner, container_id=container_id, holder=holder, image=image,
            runtime=runtime, network=network, trust=trust, limits=dict(limits), session_limits=session_limits.to_dict(),
        )

    # --- cells --------------------------------------------------------------------------------

    def check_may_add_cell(self) -> None:
        if self.status is SessionStatus.ENDED:
            raise SessionClosed(f"session {self.id} has ended ({self.ended_reason}): open a new one")
        if self.status is SessionStatus.WAITING:
            waiting = next(cell.execution_id for cell in self.cells if cell.status == "waiting")
            raise SessionClosed(f"session {self.id} waits for a person to answer its cell {waiting}")
        if len(self.cells) >= self.session_limits.max_cells:
            raise SessionClosed(f"session {self.id} has run its {self.session_limits.max_cells} cells")

    def add_cell(self, execution_id: UUID | str, level: RiskLevel, waits: bool) -> None:
        """A cell judged ``level``; ``waits``: it waits for a person, and the session with it."""
        self.check_may_add_cell()
        self._cell_added(execution_id=str(execution_id), level=level.value, waits=waits)

    class CellAdded(Event):
        """A cell (an Execution) was judged for this session; ``waits``: it waits for a person."""

        class_version = 1
        execution_id: str
        level: str
        waits: bool

    @event(CellAdded)
    def _cell_added(self, execution_id: str, level: str, waits: bool) -> None:
        self._cell_at[execution_id] = len(self.cells)
        self.cells.append(CellEntry(execution_id, level, "waiting" if waits else "added"))
        if waits:
            self.status = SessionStatus.WAITING

    def cell(self, execution_id: UUID | str) -> CellEntry:
        place = self._cell_at.get(str(execution_id))
        if place is not None:
            return self.cells[place]
        raise InvalidTransition(f"execution {execution_id} is not a cell of session {self.id}")

    def cell_ended(
        self, execution_id: UUID | str, ran: bool, manifest: list[ManifestEntry], manifest_by: str = MANIFEST_BY_INTERPRETER
    ) -> None:
        """The cell ended (``ran``: it ran, so later cells are judged with it); the working
        directory's manifest at its end (names, sizes, SHA-256), so replay shows what the next began
        with, and who listed it (``manifest_by``: recorded as what it is, never as fact)."""
        entry = self.cell(execution_id)
        if entry.status in ("ran", "refused"):
            raise InvalidTransition(f"cell {execution_id} of session {self.id} has already ended")
        self._cell_ended(execution_id=str(execution_id), ran=ran, manifest=list(manifest), manifest_by=manifest_by)

    class CellEnded(Event):
        class_version = 2
        execution_id: str
        ran: bool
        manifest: list[ManifestEntry]
        manifest_by: str

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state["manifest_by"] = MANIFEST_BY_INTERPRETER  # the interpreter listed every manifest before version 2

    @event(CellEnded)
    def _cell_ended(self, execution_id: str, ran: bool, manifest: list[ManifestEntry], manifest_by: str) -> None:
        entry = self.cell(execution_id)
        entry.status = "ran" if ran else "refused"
        if ran:
            self._workspace = list(manifest)
            self._workspace_by = manifest_by
        if self.status is SessionStatus.WAITING:
            self.status = SessionStatus.OPEN

    @property
    def ran_cells(self) -> list[str]:
        """The cells that ran, in order: the context the next cell is judged in."""
        return [cell.execution_id for cell in self.cells if cell.status == "ran"]

    @property
    def manifest(self) -> list[ManifestEntry]:
        """The working directory as the last cell that ran left it."""
        return list(self._workspace)

    @property
    def manifest_by(self) -> str:
        """Who listed ``manifest``."""
        return self._workspace_by

    # --- the interpreter ----------------------------------------------------------------------

    def interpreter_restarted(self, cause: str, execution_id: UUID | str | None = None) -> None:
        """The interpreter died (``cause``: a cell killed it, or a cell's limit was crossed) and a
        new one was started: the variables are gone, the working directory's files are kept."""
        self._require_not_ended("restart its interpreter")
        self._interpreter_restarted(cause=cause, execution_id=str(execution_id) if execution_id else "")

    class InterpreterRestarted(Event):
        class_version = 1
        cause: str
        execution_id: str

    @event(InterpreterRestarted)
    def _interpreter_restarted(self, cause: str, execution_id: str) -> None:
        self.restarts.append({"cause": cause, "execution_id": execution_id})

    # --- the end ------------------------------------------------------------------------------

    def end(self, reason: EndReason, detail: str = "") -> None:
        self._require_not_ended("end")
        self._ended(reason=reason.value, detail=detail)

    class Ended(Event):
        """Why it ended: the caller, idle, lifetime, a limit, the service's stop, recovery."""

        class_version = 1
        reason: str
        detail: str

    @event(Ended)
    def _ended(self, reason: str, detail: str) -> None:
        self.status = SessionStatus.ENDED
        self.ended_reason = reason
        self.ended_detail = detail

    def past_limit(self, cpu_used_s: float | None) -> str | None:
        """Why the session is past a limit of its own, or None: it has run its number of cells (none
        waiting for a person), or its container has used its total CPU time (``cpu_used_s``, read
        from outside the code; None: not known)."""
        if self.status is SessionStatus.ENDED:
            return None
        if self.status is SessionStatus.OPEN and len(self.cells) >= self.session_limits.max_cells:
            return f"it has run its {self.session_limits.max_cells} cells"
        if cpu_used_s is not None and cpu_used_s >= self.session_limits.total_cpu_s:
            return f"its container has used {cpu_used_s:.1f} s of CPU, the session's total is {self.session_limits.total_cpu_s:g} s"
        return None

    def ends_for(self, idle_s: float, age_s: float) -> EndReason | None:
        """Whether the session is past its lifetime or idle timeout (``idle_s``: since its last
        event; ``age_s``: since it opened). A session waiting for a person is not idle."""
        if self.status is SessionStatus.ENDED:
            return None
        if age_s >= self.session_limits.lifetime_s:
            return EndReason.LIFETIME
        if self.status is SessionStatus.OPEN and idle_s >= self.session_limits.idle_s:
            return EndReason.IDLE
        return None

    def _require_not_ended(self, action: str) -> None:
        if self.status is SessionStatus.ENDED:
            raise SessionClosed(f"cannot {action}: session {self.id} has ended ({self.ended_reason})")


@dataclass(frozen=True)
class EarlierCells:
    """What a cell is judged with: the lines of the earlier cells' statements it depends on, in the
    order they ran, and where each line came from (its cell's number and its line in that cell)."""

    lines: tuple[str, ...] = ()
    origins: tuple[tuple[int, int], ...] = ()

    def program(self, cell: str) -> tuple[str, int, int]:
        """The program judged: these lines, then the cell on lines of its own; with the first line
        of the cell in it and the cell's number of lines."""
        earlier = "".join(line + "\n" for line in self.lines)
        own = cell if cell.endswith("\n") else cell + "\n"
        return earlier + own, len(self.lines) + 1, max(own.count("\n"), 1)

    def where(self, line: int) -> str:
        """Where a line of the program judged came from, in a person's words."""
        if 0 < line <= len(self.origins):
            cell, own = self.origins[line - 1]
            return f"cell {cell}, line {own}"
        return f"line {line} of the program judged" if line > 0 else "the program judged"


def judge_in_context(
    alone: Assessment, whole: Assessment, first_line: int, line_count: int, where: Callable[[int], str] | None = None,
) -> Assessment:
    """A cell's verdict in the light of the cells before it. ``alone``: the cell judged by itself;
    ``whole``: the program of the earlier cells' statements it depends on, then this cell
    (EarlierCells.program), in which this cell's lines are ``first_line`` .. ``first_line +
    line_count - 1``; ``where``: what to call a line of the whole (EarlierCells.where).

    The cell is rated at the worse of the two; the whole's findings on the cell's lines are kept
    (at the cell's own line numbers), and when the whole is worse than anything on the cell's lines,
    a finding says so, naming what the earlier cells contributed."""
    where = where or (lambda line: f"line {line} of the session")
    last_line = first_line + line_count - 1
    seen: set[tuple[str, int, str]] = set()
    findings: list[Finding] = []
    for finding in whole.findings:
        if first_line <= finding.line <= last_line:
            shifted = Finding(**{**finding.__dict__, "line": finding.line - first_line + 1})
            seen.add((shifted.rule_id, shifted.line, shifted.analyzer))
            findings.append(shifted)
    for finding in alone.findings:
        if (finding.rule_id, finding.line, finding.analyzer) not in seen:
            findings.append(finding)
    level = RiskLevel.highest([alone.level, whole.level])
    worst_here = RiskLevel.highest([finding.level for finding in findings])
    if whole.level.rank > worst_here.rank:
        earlier = [f for f in whole.findings if f.level is whole.level][:4]
        described = "; ".join(f"{where(f.line)}: {f.message}" for f in earlier)
        findings.append(
            Finding(
                analyzer="session", rule_id="session-context", level=whole.level,
                message=f"judged with the session's earlier cells, the whole is {whole.level.value}: {described}"[:600],
            )
        )
    return Assessment(
        level=level, findings=tuple(findings), analyzers=tuple(dict.fromkeys((*alone.analyzers, *whole.analyzers))),
        duration_ms=alone.duration_ms + whole.duration_ms, complexity=dict(alone.complexity),
    )
