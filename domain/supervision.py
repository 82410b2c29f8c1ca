"""Supervising a run: what a sample holds, which limit a sample violates, which samples to keep."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .limits import ResourceLimits
from .payloads import UsageRecord

#: The shortest interval a CPU share is taken over (a percentage of one CPU). The kernel holds a
#: CPU quota per period (100 ms as Docker sets it), so a share over a shorter interval can exceed a
#: quota the kernel enforced; and the container's counter starts with the container, before the
#: code, so a share is never taken from zero, only between two readings of the run.
CPU_WINDOW_S = 1.0


@dataclass
class CpuWindows:
    """The highest CPU share over consecutive windows of at least ``CPU_WINDOW_S`` between two
    readings, the first window opening at the first reading: like with like, the CPU time the
    container used between two moments of the run over the time between them."""

    opened: tuple[float, float] | None = None  # (elapsed_s, cpu_seconds) where the window opened
    peak: float | None = None

    def add(self, elapsed_s: float, cpu_seconds: float) -> None:
        if self.opened is None:
            self.opened = (elapsed_s, cpu_seconds)
            return
        span = elapsed_s - self.opened[0]
        if span < CPU_WINDOW_S:
            return
        share = max(0.0, (cpu_seconds - self.opened[1]) * 100.0 / span)
        self.peak = share if self.peak is None else max(self.peak, share)
        self.opened = (elapsed_s, cpu_seconds)


@dataclass(frozen=True)
class Usage:
    """One reading of a running execution."""

    elapsed_s: float
    cpu_seconds: float
    memory_bytes: int
    memory_peak_bytes: int
    pids: int
    disk_bytes: int
    disk_full: bool
    output_bytes: int
    oom_kills: int = 0
    pids_limit_hits: int = 0
    io_read_bytes: int = 0
    io_write_bytes: int = 0

    def to_dict(self) -> UsageRecord:
        return {
            "elapsed_s": round(self.elapsed_s, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
            "memory_bytes": self.memory_bytes,
            "memory_peak_bytes": self.memory_peak_bytes,
            "pids": self.pids,
            "disk_bytes": self.disk_bytes,
            "disk_full": self.disk_full,
            "output_bytes": self.output_bytes,
            "oom_kills": self.oom_kills,
            "pids_limit_hits": self.pids_limit_hits,
            "io_read_bytes": self.io_read_bytes,
            "io_write_bytes": self.io_write_bytes,
        }

    def ratios(self, limits: ResourceLimits) -> dict[str, float]:
        """How close each measure is to its limit (1.0 = at the limit)."""
        return {
            "memory": self.memory_bytes / limits.memory_bytes,
            "cpu_time": self.cpu_seconds / limits.cpu_seconds if limits.cpu_seconds else 0.0,
            "pids": self.pids / limits.pids,
            "disk": self.disk_bytes / (2 * limits.tmpfs_bytes),
            "output": self.output_bytes / limits.output_bytes,
            "wall_time": self.elapsed_s / limits.timeout_s,
        }


@dataclass(frozen=True)
class Violation:
    """A limit crossed: which, what was seen, what was allowed, and when (seconds into the run)."""

    reason: str  # memory | cpu_time | pids | disk | timeout | output_limit
    observed: float
    allowed: float
    at_s: float

    def to_dict(self) -> dict[str, Any]:
        return {"limit": self.reason, "observed": self.observed, "allowed": self.allowed, "at_s": round(self.at_s, 3)}

    @property
    def detail(self) -> str:
        return f"{self.reason}: {self.observed:g} observed, {self.allowed:g} allowed, at {self.at_s:.2f} s"


def find_violation(limits: ResourceLimits, usage: Usage) -> Violation | None:
    """The first limit the reading shows crossed. The kernel enforces memory and pids itself: an OOM
    kill, or a refused fork, means the program hit the wall and the run ends there."""
    if usage.oom_kills > 0:
        # The kernel's OOM killer acts at the limit: a peak never read (the cgroup was gone at the
        # first reading, as when gVisor's kernel is killed within one sample) is the limit, not 0.
        return Violation("memory", usage.memory_peak_bytes or limits.memory_bytes, limits.memory_bytes, usage.elapsed_s)
    if usage.pids_limit_hits > 0:
        return Violation("pids", usage.pids, limits.pids, usage.elapsed_s)
    if limits.cpu_seconds and usage.cpu_seconds > limits.cpu_seconds:
        return Violation("cpu_time", round(usage.cpu_seconds, 3), limits.cpu_seconds, usage.elapsed_s)
    if usage.disk_full:
        return Violation("disk", usage.disk_bytes, limits.tmpfs_bytes, usage.elapsed_s)
    if usage.output_bytes > limits.output_bytes:
        return Violation("output_limit", usage.output_bytes, limits.output_bytes, usage.elapsed_s)
    if usage.elapsed_s >= limits.timeout_s:
        return Violation("timeout", round(usage.elapsed_s, 3), limits.timeout_s, usage.elapsed_s)
    return None


@dataclass
class SampleThinner:
    """Keeps the ledger lean: a sample is recorded once per ``every_s`` and whenever any measure
    crosses ``above`` of its limit; everything else only feeds the peaks."""

    every_s: float
    above: float
    _last_recorded: float = field(default=-1e9)
    _over: set[str] = field(default_factory=set)

    def should_record(self, usage: Usage, limits: ResourceLimits) -> bool:
        over = {name for name, ratio in usage.ratios(limits).items() if ratio >= self.above and name != "wall_time"}
        crossed = bool(over - self._over)
        self._over = over
        if crossed or usage.elapsed_s - self._last_recorded >= self.every_s:
            self._last_recorded = usage.elapsed_s
            return True
        return False


@dataclass
class Peaks:
    """The highest and final values over all samples, for the terminal event."""

    samples: int = 0
    values: dict[str, float] = field(default_factory=dict)
    cpu: CpuWindows = field(default_factory=CpuWindows)

    def add(self, usage: Usage) -> None:
        self.samples += 1
        for key in ("memory_peak_bytes", "pids", "cpu_seconds", "disk_bytes", "io_read_bytes", "io_write_bytes"):
            self.values[key] = max(self.values.get(key, 0), getattr(usage, key))
        self.cpu.add(usage.elapsed_s, usage.cpu_seconds)

    def to_dict(self) -> dict[str, Any]:
        """The counters (``cpu_seconds``, ``memory_peak_bytes``...) are the container's, from its
        start; ``cpu_percent``, when the run lasted a window, is the highest share of one CPU over
        windows of ``cpu_percent_window_s`` of the run (``CpuWindows``)."""
        recorded: dict[str, Any] = {"samples": self.samples, **{key: round(value, 3) for key, value in self.values.items()}}
        if self.cpu.peak is not None:
            recorded["cpu_percent"] = round(self.cpu.peak, 1)
            recorded["cpu_percent_window_s"] = CPU_WINDOW_S
        return recorded
