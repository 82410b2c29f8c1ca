"""The execution policy and the sizing of a run.

``ExecutionPolicy`` is what the application knows of the policies to gate, size and watch a run:
the limit profiles and trust rules, the gate's rules, the sampling, the egress, the known threats.
``Sizer`` turns a submission's provenance, level, complexity and request into a ``Sizing``: the
limits asked of the sandbox, the least it can run with, the network it gets, and why; and checks
that what a waiting execution asked for is still granted when it is answered.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import timedelta

from mai_safety.domain.errors import DomainError, InvalidSubmission, LimitOutOfPolicy
from mai_safety.domain.files import FileBounds
from mai_safety.domain.images import DEFAULT_IMAGE, ImageNotAllowed, SandboxImages
from mai_safety.domain.gate import GateRules
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.domain.limits import (
    ComplexityScale,
    LimitProfile,
    RequestedLimits,
    ResourceLimits,
    TrustRule,
    fit_limits,
    trust_for,
)
from mai_safety.domain.network import (
    EgressPolicy,
    KnownThreats,
    NetworkMode,
    NetworkNotAllowed,
    NetworkRequest,
    check_runtime_for_network,
    requirements_in_header,
)
from mai_safety.domain.payloads import SizingRecord
from mai_safety.domain.run_request import RequestNoLongerGranted, RunRequest
from mai_safety.domain.session import SessionPolicy

from .errors import ConfigurationError
from .ports import PackageIndex


@dataclass(frozen=True)
class ExecutionPolicy:
    """What the application needs to know of the policies to gate, size and watch a run: limits,
    sampling, egress and threats."""

    profiles: dict[TrustLevel, LimitProfile | ResourceLimits]
    trust_rules: tuple[TrustRule, ...]
    max_code_bytes: int
    rules: GateRules = GateRules(confirmers=("*",), overriders=(), answer_within=timedelta(hours=1))
    complexity: ComplexityScale = ComplexityScale({"lines": 400})
    sample_every_s: float = 1.0
    sample_above: float = 0.8
    egress: EgressPolicy = EgressPolicy(allow=())
    derive_allow_from_index: bool = True
    threats: KnownThreats = KnownThreats()
    runtimes: dict[TrustLevel, str] = field(default_factory=dict)  # runc | runsc | auto; runc if absent
    version: int = 0  # the recorded policy version these came from (0: the shipped folder, unrecorded)
    files: FileBounds = FileBounds()  # input and output files' count and bytes (limits.yaml ``files:``)
    images: SandboxImages = SandboxImages()  # the images a run may ask for by name (limits.yaml ``images:``)
    sessions: SessionPolicy = SessionPolicy()  # a session's bounds, and how many may be open (limits.yaml ``sessions:``)

    def profile(self, trust: TrustLevel) -> LimitProfile:
        profile = self.profiles[trust]
        return profile if isinstance(profile, LimitProfile) else LimitProfile.fixed(profile)


@dataclass(frozen=True)
class Sizing:
    """The limits a run asks the sandbox for, the least it can run with, its network, and why."""

    trust: TrustLevel
    limits: ResourceLimits
    floor: ResourceLimits
    why: SizingRecord
    network: NetworkRequest = NetworkRequest()
    runtime: str = "runc"  # runc | runsc | auto, as the trust level's profile says
    image: str = "default"  # the sandbox image by name (domain.images), as the policy grants it

    def request(self, provenance: Provenance, requested: RequestedLimits) -> RunRequest:
        """What a waiting execution keeps of this sizing, to run exactly that once answered."""
        return RunRequest(provenance, self.trust, requested, self.limits, self.network, self.image)


class Sizer:
    """Sizes runs under one execution policy; every entry is checked before anything is recorded."""

    def __init__(self, policy: ExecutionPolicy, package_index: PackageIndex | None) -> None:
        self.policy = policy
        self.package_index = package_index

    def size(
        self,
        provenance: Provenance,
        level: RiskLevel,
        complexity: dict[str, int],
        requested: RequestedLimits,
        *,
        network: NetworkMode = NetworkMode.NONE,
        requirements: tuple[str, ...] | list[str] = (),
        code: str = "",
        image: str = DEFAULT_IMAGE,
    ) -> Sizing:
        """The limits, the network and the image of a new run of ``code``."""
        sizing = self.limits_for(provenance, level, complexity, requested)
        chosen = self.policy.images.check(image, sizing.trust)
        return replace(sizing, network=self.network(network, list(requirements), code, sizing), image=chosen)

    def limits_for(
        self, provenance: Provenance, level: RiskLevel, complexity: dict[str, int], requested: RequestedLimits
    ) -> Sizing:
        """The limits alone (no network yet): the trust level's profile at this complexity, then the request."""
        policy = self.policy
        trust = trust_for(policy.trust_rules, provenance, level)
        profile = policy.profile(trust)
        score = policy.complexity.score(complexity)
        limits = fit_limits(profile, requested, trust, score)
        floor = ResourceLimits(**{key: min(getattr(profile.minimum, key), getattr(limits, key)) for key in limits.to_dict()})
        why: SizingRecord = {
            "trust": trust.value,
            "provenance": provenance.value,
            "level": level.value,
            "complexity": dict(complexity),
            "complexity_score": score,
            "requested": requested.to_dict(),
            "profile": {"min": profile.minimum.to_dict(), "max": profile.maximum.to_dict()},
        }
        return Sizing(trust=trust, limits=limits, floor=floor, why=why, runtime=policy.runtimes.get(trust, "runc"))

    def as_recorded(
        self, execution_id: object, level: RiskLevel, complexity: dict[str, int], code: str, request: RunRequest
    ) -> Sizing:
        """The sizing of what a waiting execution asked for, if the policy in force still grants all
        of it (RequestNoLongerGranted otherwise); the host's room is applied later, by the sandbox,
        as for every run."""
        refusal: DomainError | None = None
        try:
            current = self.limits_for(request.provenance, level, complexity, request.requested)
            granted = self.network(request.network.mode, list(request.network.requirements), code, current)
            problems = request.not_granted_by(current.trust, self.policy.profile(current.trust).maximum, granted)
            self.policy.images.check(request.image, current.trust)
        except (LimitOutOfPolicy, NetworkNotAllowed, InvalidSubmission, ImageNotAllowed) as exc:
            problems, refusal = [exc.message], exc
        if problems:
            raise RequestNoLongerGranted(
                f"execution {execution_id} asked for what the policy in force no longer grants: {'; '.join(problems)}. "
                "Nothing ran: deny it and submit the code again",
                refusal=refusal,
            )
        minimum = self.policy.profile(current.trust).minimum
        floor = ResourceLimits(**{key: min(getattr(minimum, key), value) for key, value in request.limits.to_dict().items()})
        why: SizingRecord = {**current.why, "sized_when": "submitted (recorded on OverrideRequested)"}
        return Sizing(
            trust=request.trust, limits=request.limits, floor=floor, why=why, network=request.network, runtime=current.runtime,
            image=request.image,
        )

    def network(self, mode: NetworkMode, requirements: list[str], code: str, sizing: Sizing) -> NetworkRequest:
        """The network this run gets, with every entry checked before anything is recorded."""
        if mode is NetworkMode.NONE:
            if requirements:
                raise InvalidSubmission("requirements can only be installed with --network deps")
            return NetworkRequest()
        trust = sizing.trust
        egress = self.policy.egress
        egress.check_trust(trust)
        check_runtime_for_network(sizing.runtime, trust, wants_network=True)
        if self.package_index is None:
            raise ConfigurationError("no package index is configured for --network deps")
        wanted = [self.package_index.check_requirement(entry) for entry in requirements + requirements_in_header(code)]
        self.policy.threats.check_requirements(wanted)
        derived = self.package_index.hosts() if self.policy.derive_allow_from_index else ()
        return NetworkRequest(
            mode=NetworkMode.DEPS,
            allow=tuple(dict.fromkeys(egress.allow + derived)),
            http_ports=egress.http_ports,
            https_ports=egress.https_ports,
            max_bytes=egress.max_bytes,
            max_requests=egress.max_requests,
            index_urls=self.package_index.index_urls(),
            requirements=tuple(dict.fromkeys(wanted)),
        )


__all__ = ["ExecutionPolicy", "Sizer", "Sizing"]
