"""Supervising a run: what a sample holds, which limit a sample violates, which samples to keep."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .limits import ResourceLimits
from .payloads import UsageRecord


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
        return Violation("memory", usage.memory_peak_bytes, limits.memory_bytes, usage.elapsed_s)
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

    def add(self, usage: Usage) -> None:
        self.samples += 1
        for key in ("memory_peak_bytes", "pids", "cpu_seconds", "disk_bytes", "io_read_bytes", "io_write_bytes"):
            self.values[key] = max(self.values.get(key, 0), getattr(usage, key))

    def to_dict(self) -> dict[str, Any]:
        return {"samples": self.samples, **{key: round(value, 3) for key, value in self.values.items()}}
