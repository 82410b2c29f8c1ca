"""Resource limits: the profiles a policy grants per trust level, how code complexity moves a run
within its profile, how a request lowers it, and how the host's free room caps it."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, cast

from .errors import LimitOutOfPolicy, MaiSafetyError
from .levels import Provenance, RiskLevel, TrustLevel
from .payloads import LimitsRecord, RequestedLimitsRecord

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b?)\s*$", re.IGNORECASE)
_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}


def parse_size(text: str | int, what: str) -> int:
    """'128m', '1GiB', '512k' or a plain number of bytes -> bytes (binary units, as Docker reads them)."""
    if isinstance(text, int):
        value = text
    else:
        match = _SIZE.match(str(text))
        if not match:
            raise LimitOutOfPolicy(f"{what} {text!r} is not a size: write a number with an optional unit, e.g. 128m or 1g")
        value = int(float(match.group(1)) * _UNITS[match.group(2).lower()])
    if value <= 0:
        raise LimitOutOfPolicy(f"{what} must be more than zero, got {text!r}")
    return value


def format_size(value: int) -> str:
    for unit, size in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if value >= size and value % size == 0:
            return f"{value // size} {unit}"
    return f"{value} B"


@dataclass(frozen=True)
class ResourceLimits:
    cpus: float
    memory_bytes: int
    pids: int
    timeout_s: float
    output_bytes: int
    tmpfs_bytes: int
    cpu_seconds: float = 0.0  # CPU time over the whole run; 0 means twice the wall-clock limit per CPU

    def __post_init__(self) -> None:
        if not self.cpu_seconds:
            object.__setattr__(self, "cpu_seconds", self.timeout_s * self.cpus * 2)

    def to_dict(self) -> LimitsRecord:
        return {
            "cpus": self.cpus,
            "memory_bytes": self.memory_bytes,
            "pids": self.pids,
            "timeout_s": self.timeout_s,
            "output_bytes": self.output_bytes,
            "tmpfs_bytes": self.tmpfs_bytes,
            "cpu_seconds": self.cpu_seconds,
        }

    @classmethod
    def from_dict(cls, data: LimitsRecord) -> "ResourceLimits":
        return cls(
            cpus=data["cpus"],
            memory_bytes=data["memory_bytes"],
            pids=data["pids"],
            timeout_s=data["timeout_s"],
            output_bytes=data["output_bytes"],
            tmpfs_bytes=data["tmpfs_bytes"],
            cpu_seconds=data.get("cpu_seconds", 0.0),
        )


@dataclass(frozen=True)
class LimitProfile:
    """What one trust level may get: simple code gets ``minimum``, the most complex gets ``maximum``."""

    minimum: ResourceLimits
    maximum: ResourceLimits

    @classmethod
    def fixed(cls, limits: ResourceLimits) -> "LimitProfile":
        return cls(limits, limits)

    def at(self, score: float) -> ResourceLimits:
        score = min(max(score, 0.0), 1.0)
        values: dict[str, Any] = {}
        for field in fields(ResourceLimits):
            low, high = getattr(self.minimum, field.name), getattr(self.maximum, field.name)
            value = low + (high - low) * score
            if field.name.endswith("_bytes") and high != low:
                value = max(low, min(high, round(value / 2**20) * 2**20))  # whole MiB
            values[field.name] = round(value) if isinstance(high, int) else round(value, 1)
        return ResourceLimits(**values)


@dataclass(frozen=True)
class ComplexityScale:
    """For each measure of the assessor's complexity, the value at which code counts as fully complex."""

    full_at: dict[str, float]

    def score(self, complexity: dict[str, int]) -> float:
        parts = [min(complexity.get(name, 0) / limit, 1.0) for name, limit in self.full_at.items() if limit > 0]
        return round(max(parts, default=0.0), 3)


@dataclass(frozen=True)
class RequestedLimits:
    """What a caller asks for; every field optional, each at most the profile's maximum."""

    cpus: float | None = None
    memory_bytes: int | None = None
    pids: int | None = None
    timeout_s: float | None = None
    output_bytes: int | None = None
    cpu_seconds: float | None = None

    def to_dict(self) -> RequestedLimitsRecord:
        return cast(RequestedLimitsRecord, {key: value for key, value in asdict(self).items() if value is not None})


#: The limits a caller may ask for (``RequestedLimits``' fields), in the order they are checked.
REQUESTABLE_LIMITS = ("cpus", "memory_bytes", "pids", "timeout_s", "output_bytes", "cpu_seconds")


def fit_limits(
    profile: LimitProfile | ResourceLimits,
    requested: RequestedLimits,
    trust: TrustLevel,
    complexity_score: float = 1.0,
) -> ResourceLimits:
    """The profile's limits at the code's complexity, then lowered or raised by the request up to
    the profile's maximum; a request above the maximum, or not positive, is refused."""
    if isinstance(profile, ResourceLimits):
        profile = LimitProfile.fixed(profile)
    chosen = profile.at(complexity_score)
    for name in REQUESTABLE_LIMITS:
        value = getattr(requested, name)
        if value is None:
            continue
        ceiling = getattr(profile.maximum, name)
        if value <= 0:
            raise LimitOutOfPolicy(f"{name} must be more than zero, got {value}", limit=name, asked=value, trust=trust.value)
        if value > ceiling:
            is_size = name.endswith("bytes")
            shown = format_size(ceiling) if is_size else f"{ceiling:g}"
            asked = format_size(value) if is_size else f"{value:g}"
            raise LimitOutOfPolicy(
                f"{name} {asked} is above what the policy allows {trust.value} code ({shown}): ask for at most that",
                limit=name,
                asked=value,
                allowed=ceiling,
                trust=trust.value,
            )
        chosen = replace(chosen, **{name: type(ceiling)(value)})
    if requested.timeout_s is not None and requested.cpu_seconds is None:
        # A shorter wall clock shortens the CPU-time budget with it.
        chosen = replace(chosen, cpu_seconds=min(chosen.cpu_seconds, chosen.timeout_s * chosen.cpus * 2))
    return chosen


#: The wall a run gets, per trust level: ``runc`` (the host's kernel, namespaces and cgroups),
#: ``runsc`` (gVisor: a user-space kernel between the code and the host's), or ``auto`` (runsc where
#: the host has it, else runc, with a note on the record). Plain names: the sandbox adapter maps them.
RUNTIMES = ("runc", "runsc", "auto")


@dataclass(frozen=True)
class TrustRule:
    """Which trust level a provenance earns at or below a risk level."""

    provenance: Provenance
    up_to: RiskLevel
    trust: TrustLevel


def trust_for(rules: tuple[TrustRule, ...], provenance: Provenance, level: RiskLevel) -> TrustLevel:
    """The first rule matching the provenance whose ceiling covers the level; untrusted when none does."""
    for rule in rules:
        if rule.provenance == provenance and level <= rule.up_to:
            return rule.trust
    return TrustLevel.UNTRUSTED


# --- the host's room ---------------------------------------------------------------------------


class HostBusy(MaiSafetyError):
    """The host has no room for this execution now; trying again later may succeed."""


@dataclass(frozen=True)
class HostPolicy:
    memory_share: float  # never hand out more than this share of the memory the host has free
    cpu_share: float  # of the host's CPUs, at most, for one execution
    max_concurrent: int
    queue: int  # executions that may wait for room in one process
    queue_wait_s: float


@dataclass(frozen=True)
class HostRoom:
    """What the host has now: free memory (counting what running executions may still take) and
    CPUs, and how many executions run."""

    available_memory_bytes: int
    reserved_memory_bytes: int  # limits of running executions not yet in use
    cpu_count: int
    running: int


def cap_to_host(
    limits: ResourceLimits, floor: ResourceLimits, room: HostRoom, policy: HostPolicy
) -> tuple[ResourceLimits, dict[str, Any]]:
    """Shrink ``limits`` to what the host can give now, never below ``floor``; HostBusy if it cannot."""
    if room.running >= policy.max_concurrent:
        raise HostBusy(
            f"the host runs {room.running} executions, the most the policy allows at once "
            f"(host.max_concurrent = {policy.max_concurrent}): try again when one ends"
        )
    memory_room = int(policy.memory_share * room.available_memory_bytes) - room.reserved_memory_bytes
    cpu_room = round(policy.cpu_share * room.cpu_count, 3)
    capped: list[str] = []
    chosen = limits
    if chosen.memory_bytes > memory_room:
        if memory_room < floor.memory_bytes:
            raise HostBusy(
                f"the host has {format_size(max(memory_room, 0))} to give (host.memory_share = {policy.memory_share} "
                f"of {format_size(room.available_memory_bytes)} free, less what running executions hold), below the "
                f"{format_size(floor.memory_bytes)} this code needs at least: try again later"
            )
        chosen = replace(chosen, memory_bytes=memory_room)
        capped.append("memory_bytes")
    if chosen.cpus > cpu_room:
        chosen = replace(chosen, cpus=max(cpu_room, min(floor.cpus, cpu_room)))
        capped.append("cpus")
    reason = {
        "available_memory_bytes": room.available_memory_bytes,
        "reserved_memory_bytes": room.reserved_memory_bytes,
        "memory_share": policy.memory_share,
        "cpu_count": room.cpu_count,
        "running": room.running,
        "capped": capped,
    }
    return chosen, reason
