"""Resource limits, the profiles a policy grants per trust level, and the rule that fits a request into them."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace
from typing import Any

from .errors import LimitOutOfPolicy
from .levels import Provenance, RiskLevel, TrustLevel

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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ResourceLimits":
        return cls(**data)


@dataclass(frozen=True)
class RequestedLimits:
    """What a caller asks for; every field optional, each may only lower the profile's value."""

    cpus: float | None = None
    memory_bytes: int | None = None
    pids: int | None = None
    timeout_s: float | None = None
    output_bytes: int | None = None


_FLAG_NAMES = {
    "cpus": "--cpus",
    "memory_bytes": "--memory",
    "pids": "--pids",
    "timeout_s": "--timeout",
    "output_bytes": "--output-limit",
}


def fit_limits(profile: ResourceLimits, requested: RequestedLimits, trust: TrustLevel) -> ResourceLimits:
    """The profile's limits lowered by the request; a request above the profile or not positive is refused."""
    chosen = profile
    for name, flag in _FLAG_NAMES.items():
        value = getattr(requested, name)
        if value is None:
            continue
        ceiling = getattr(profile, name)
        if value <= 0:
            raise LimitOutOfPolicy(f"{flag} must be more than zero, got {value}")
        if value > ceiling:
            shown = format_size(ceiling) if name.endswith("bytes") else ceiling
            raise LimitOutOfPolicy(
                f"{flag} {value if not name.endswith('bytes') else format_size(value)} is above what the policy "
                f"allows {trust.value} code ({shown}): ask for at most that, or change the profile in policies/limits.yaml"
            )
        chosen = replace(chosen, **{name: type(ceiling)(value)})
    return chosen


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
