"""The hard rules a policy may not weaken, as named checks over already-parsed policy objects.

The container's hardening (a read-only root filesystem, every capability dropped, never privileged,
no new privileges, an unprivileged user) is not a policy setting at all: it is fixed in the sandbox,
and a policy file that names one of those keys is refused (``HARDENING_KEYS``). What a policy can
express, and so could weaken, is checked here; each broken rule is one line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fnmatch import fnmatchcase

from .gate import GateRules
from .levels import Provenance, RiskLevel, TrustLevel
from .limits import LimitProfile, TrustRule
from .network import EgressPolicy

#: Keys a limit profile might try to carry that the sandbox fixes for every run, with why.
HARDENING_KEYS: dict[str, str] = {
    "read_only": "the root filesystem is always read-only",
    "read_only_root": "the root filesystem is always read-only",
    "cap_add": "no capability is ever added (all are dropped)",
    "capabilities": "no capability is ever added (all are dropped)",
    "privileged": "a run is never privileged",
    "security_opt": "no-new-privileges and the seccomp profile are fixed",
    "seccomp": "the seccomp profile is fixed",
    "user": "code always runs as an unprivileged user",
    "network_mode": "the network is chosen per run (none, or the deps egress), never by a profile",
    "devices": "no device is ever passed in",
}

#: Names no policy should let answer a BLOCKED execution: if a pattern matches them, it matches anyone,
#: the submitter of the execution among them.
_ANYONE = ("someone-unnamed", "someone-unnamed@some-host")


@dataclass(frozen=True)
class HostCapacity:
    """What the host has in all: no profile may grant more than all of it (domain.limits.HostRoom
    is what it has free now, for one run's admission)."""

    cpus: int
    memory_bytes: int


@dataclass(frozen=True)
class PolicyUnderReview:
    gate: GateRules
    profiles: dict[TrustLevel, LimitProfile]
    trust_rules: tuple[TrustRule, ...]
    egress: EgressPolicy
    failure_levels: dict[str, RiskLevel] = field(default_factory=dict)  # where an analyzer's failure lands
    runtimes: dict[TrustLevel, str] = field(default_factory=dict)  # runc | runsc | auto per profile; runc if absent


#: The walls a profile's ``runtime`` may name, weakest first: runc (the host's kernel alone), auto
#: (gVisor where the engine has it, else runc, noted on ``Started``), runsc (gVisor, or no run).
RUNTIME_STRENGTH = {"runc": 0, "auto": 1, "runsc": 2}
#: The runtime untrusted code is shipped with (policies/limits.yaml): no policy may put it on a weaker one.
SHIPPED_UNTRUSTED_RUNTIME = "auto"


def override_names_its_actors(policy: PolicyUnderReview, host: HostCapacity) -> list[str]:
    return [
        f"gate.yaml: override: {pattern!r} matches anyone, so a submitter could override its own BLOCKED code: name the actors"
        for pattern in policy.gate.overriders
        if any(fnmatchcase(name, pattern) for name in _ANYONE)
    ]


def no_network_for_untrusted_code(policy: PolicyUnderReview, host: HostCapacity) -> list[str]:
    if TrustLevel.UNTRUSTED in policy.egress.trust_levels:
        return ["network.yaml: trust_levels: untrusted code never gets a network: remove untrusted"]
    return []


def gated_and_external_code_stays_untrusted(policy: PolicyUnderReview, host: HostCapacity) -> list[str]:
    problems = []
    for index, rule in enumerate(policy.trust_rules):
        if rule.trust is TrustLevel.UNTRUSTED:
            continue
        if rule.provenance is Provenance.EXTERNAL:
            problems.append(f"limits.yaml: trust.{index}: external code is always untrusted, not {rule.trust.value}")
        elif rule.up_to in (RiskLevel.HIGH, RiskLevel.BLOCKED):
            problems.append(
                f"limits.yaml: trust.{index}: code run only after a confirmation or an override ({rule.up_to.value}) "
                f"is always untrusted, not {rule.trust.value}"
            )
    return problems


def limits_within_the_host(policy: PolicyUnderReview, host: HostCapacity) -> list[str]:
    problems = []
    for trust, profile in policy.profiles.items():
        if profile.maximum.cpus > host.cpus:
            problems.append(
                f"limits.yaml: profiles.{trust.value}.cpus: {profile.maximum.cpus:g} is more than the host's {host.cpus} CPU(s)"
            )
        if profile.maximum.memory_bytes > host.memory_bytes:
            problems.append(
                f"limits.yaml: profiles.{trust.value}.memory: {profile.maximum.memory_bytes} bytes is more than the "
                f"host's {host.memory_bytes}"
            )
    return problems


def untrusted_gets_no_more_than_standard(policy: PolicyUnderReview, host: HostCapacity) -> list[str]:
    untrusted, standard = policy.profiles.get(TrustLevel.UNTRUSTED), policy.profiles.get(TrustLevel.STANDARD)
    if untrusted is None or standard is None:
        return []
    return [
        f"limits.yaml: profiles.untrusted.{key}: more than the standard profile's maximum"
        for key in ("cpus", "memory_bytes", "pids", "timeout_s", "tmpfs_bytes")
        if getattr(untrusted.maximum, key) > getattr(standard.maximum, key)
    ]


def untrusted_code_keeps_its_second_wall(policy: PolicyUnderReview, host: HostCapacity) -> list[str]:
    """gVisor's kernel is the second wall around external and gated code (docs/decisions/0013):
    a policy may make it stricter (runsc), never take it away (runc). ``auto`` on a host without
    runsc still runs under runc, noted: the host has no second wall to give, the policy took none."""
    runtime = policy.runtimes.get(TrustLevel.UNTRUSTED, "runc")
    if RUNTIME_STRENGTH.get(runtime, 0) >= RUNTIME_STRENGTH[SHIPPED_UNTRUSTED_RUNTIME]:
        return []
    return [
        f"limits.yaml: profiles.untrusted.runtime: {runtime} (also what an absent runtime means) takes untrusted "
        f"code off gVisor, its second wall: {SHIPPED_UNTRUSTED_RUNTIME} or runsc"
    ]


def analyzer_failure_never_low(policy: PolicyUnderReview, host: HostCapacity) -> list[str]:
    return [
        f"{where}: an analyzer that fails must never make the code LOW (fail closed): MEDIUM or above"
        for where, level in sorted(policy.failure_levels.items())
        if level is RiskLevel.LOW
    ]


HARD_RULES: tuple[Callable[[PolicyUnderReview, HostCapacity], list[str]], ...] = (
    override_names_its_actors,
    no_network_for_untrusted_code,
    gated_and_external_code_stays_untrusted,
    limits_within_the_host,
    untrusted_gets_no_more_than_standard,
    untrusted_code_keeps_its_second_wall,
    analyzer_failure_never_low,
)


def weakenings(policy: PolicyUnderReview, host: HostCapacity) -> list[str]:
    """Every hard rule the policy breaks, one line each; empty when it weakens none."""
    return [problem for rule in HARD_RULES for problem in rule(policy, host)]
