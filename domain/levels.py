"""Risk levels, provenances and trust levels: the small vocabularies every other module speaks."""

from __future__ import annotations

from enum import Enum


class RiskLevel(str, Enum):
    """Ordered verdicts of an assessment: LOW < MEDIUM < HIGH < BLOCKED."""

    LOW = "LOW"
    MEDIUM = "MEDIUM"
    HIGH = "HIGH"
    BLOCKED = "BLOCKED"

    @property
    def rank(self) -> int:
        return _RANKS[self]

    @classmethod
    def highest(cls, levels: "list[RiskLevel] | tuple[RiskLevel, ...]") -> "RiskLevel":
        return max(levels, key=lambda level: level.rank, default=cls.LOW)

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, RiskLevel):
            return NotImplemented
        return self.rank >= other.rank

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, RiskLevel):
            return NotImplemented
        return self.rank > other.rank

    def __le__(self, other: object) -> bool:
        if not isinstance(other, RiskLevel):
            return NotImplemented
        return self.rank <= other.rank

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, RiskLevel):
            return NotImplemented
        return self.rank < other.rank


_RANKS = {RiskLevel.LOW: 0, RiskLevel.MEDIUM: 1, RiskLevel.HIGH: 2, RiskLevel.BLOCKED: 3}


class Provenance(str, Enum):
    """Who wrote the code: the assistant, the user themself, or somewhere outside."""

    MAI = "mai"
    USER = "user"
    EXTERNAL = "external"


class TrustLevel(str, Enum):
    TRUSTED = "trusted"
    STANDARD = "standard"
    UNTRUSTED = "untrusted"


class GateDecision(str, Enum):
    """What the gate does with an assessed submission."""

    RUN = "run"  # LOW
    RUN_WITH_WARNINGS = "run_with_warnings"  # MEDIUM
    NEEDS_CONFIRMATION = "needs_confirmation"  # HIGH
    NEEDS_OVERRIDE = "needs_override"  # BLOCKED

    @property
    def may_run_now(self) -> bool:
        return self in (GateDecision.RUN, GateDecision.RUN_WITH_WARNINGS)

    @classmethod
    def for_level(cls, level: RiskLevel) -> "GateDecision":
        return {
            RiskLevel.LOW: cls.RUN,
            RiskLevel.MEDIUM: cls.RUN_WITH_WARNINGS,
            RiskLevel.HIGH: cls.NEEDS_CONFIRMATION,
            RiskLevel.BLOCKED: cls.NEEDS_OVERRIDE,
        }[level]
