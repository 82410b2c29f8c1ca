"""Reads policies/ (YAML), validates it with pydantic and hands the domain plain policy objects.

Every problem becomes one ConfigurationError naming the file, the key and what was expected.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator

from mai_safety.application.errors import ConfigurationError

from .files import StrictModel, load
from mai_safety.domain.errors import DomainError, LimitOutOfPolicy
from mai_safety.domain.network import EgressPolicy, check_allow_entry
from mai_safety.domain.files import FileBounds
from mai_safety.domain.images import NamedImage, SandboxImages
from mai_safety.domain.session import SessionLimits, SessionPolicy
from mai_safety.domain.gate import GateRules
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.domain.limits import (
    ComplexityScale,
    HostPolicy,
    LimitProfile,
    ResourceLimits,
    TrustRule,
    parse_size,
)

LevelName = Literal["LOW", "MEDIUM", "HIGH", "BLOCKED"]
_CONFIDENCE_ORDER = {"UNDEFINED": 0, "LOW": 1, "MEDIUM": 2, "HIGH": 3}


# --- assessment.yaml -------------------------------------------------------------------------


class _BanditSection(StrictModel):
    severity: dict[Literal["LOW", "MEDIUM", "HIGH"], LevelName]
    min_confidence: Literal["LOW", "MEDIUM", "HIGH"] = "LOW"
    rules: dict[str, LevelName] = Field(default_factory=dict)

    @field_validator("rules")
    @classmethod
    def _rule_ids(cls, rules: dict[str, str]) -> dict[str, str]:
        for rule_id in rules:
            if not (len(rule_id) == 4 and rule_id[0] == "B" and rule_id[1:].isdigit()):
                raise ValueError(f"{rule_id!r} is not a Bandit test id such as B602")
        return rules


class _AssessmentFile(StrictModel):
    version: Literal[1]
    analyzer_failure_level: LevelName = "MEDIUM"
    bandit: _BanditSection


@dataclass(frozen=True)
class BanditPolicy:
    severity: dict[str, RiskLevel]
    min_confidence: str
    rules: dict[str, RiskLevel]
    failure_level: RiskLevel

    def level_for(self, test_id: str, severity: str, confidence: str) -> RiskLevel:
        """The rule's own level if the policy names it, else the severity's; one level lower
        (never below LOW) when Bandit is less confident than the policy's threshold."""
        level = self.rules.get(test_id) or self.severity.get(severity.upper(), RiskLevel.MEDIUM)
        if _CONFIDENCE_ORDER.get(confidence.upper(), 0) < _CONFIDENCE_ORDER[self.min_confidence]:
            order = list(RiskLevel)
            level = order[max(order.index(level) - 1, 0)]
        return level


# --- limits.yaml -----------------------------------------------------------------------------


class _Range(StrictModel):
    min: float | str
    max: float | str


class _Profile(StrictModel):
    cpus: float | _Range
    memory: str | int | _Range
    pids: int | _Range
    timeout_s: float | _Range
    cpu_seconds: float | _Range | None = None
    output: str | int | _Range
    tmpfs: str | int | _Range
    # runc: the host's kernel; runsc: gVisor's; auto: runsc where registered, else runc (noted)
    runtime: Literal["runc", "runsc", "auto"] = "runc"


class _TrustRule(StrictModel):
    provenance: Literal["mai", "user", "external"]
    up_to: LevelName
    trust: Literal["trusted", "standard", "untrusted"]


class _Host(StrictModel):
    memory_share: float = Field(gt=0, le=1)
    cpu_share: float = Field(gt=0, le=1)
    max_concurrent: int | Literal["auto"] = "auto"
    executions_per_cpu: int = Field(default=4, gt=0, le=64)
    queue: int = Field(default=16, ge=0, le=10_000)
    queue_wait_s: float = Field(default=60, ge=0, le=3600)


class _Sampling(StrictModel):
    interval_s: float = Field(default=0.25, ge=0.05, le=10)
    record_every_s: float = Field(default=1.0, ge=0.05, le=3600)
    record_above: float = Field(default=0.8, gt=0, le=1)


class _Pool(StrictModel):
    # Waiting, pre-started containers per profile, under the profile's runtime (0: none, today's path).
    sizes: dict[Literal["trusted", "standard", "untrusted"], int] = Field(default_factory=dict)
    max_idle_s: float = Field(default=300, ge=10, le=3600)

    @field_validator("sizes")
    @classmethod
    def _sizes(cls, sizes: dict[str, int]) -> dict[str, int]:
        for name, size in sizes.items():
            if not 0 <= size <= 16:
                raise ValueError(f"pool size of {name} must be 0 to 16, got {size}")
        return sizes


class _Files(StrictModel):
    # Files a run is given and leaves (issue #25): count, per-file and total bytes; collection time.
    max_inputs: int = Field(default=100, ge=0, le=10_000)
    max_input_bytes: str | int = "10m"
    max_inputs_total: str | int = "20m"
    max_outputs: int = Field(default=100, ge=0, le=10_000)
    max_output_bytes: str | int = "10m"
    max_outputs_total: str | int = "20m"
    collect_s: float = Field(default=5.0, gt=0, le=60)


class _Sessions(StrictModel):
    # A session's own bounds (issue #27): what a caller may ask for at most (it may ask for less),
    # and how many sessions one principal, and one server, may hold open at once.
    idle_s: float = Field(default=300.0, ge=10, le=86_400)
    lifetime_s: float = Field(default=3600.0, ge=60, le=7 * 86_400)
    max_cells: int = Field(default=1000, ge=1, le=100_000)
    cell_timeout_s: float = Field(default=30.0, gt=0, le=3600)
    cell_cpu_s: float = Field(default=15.0, gt=0, le=3600)
    total_cpu_s: float = Field(default=600.0, gt=0, le=7 * 86_400)
    per_principal: int = Field(default=4, ge=1, le=64)
    per_host: int = Field(default=8, ge=1, le=256)

    def policy(self) -> SessionPolicy:
        bounds = self.model_dump()
        return SessionPolicy(
            limits=SessionLimits.from_dict(bounds), per_principal=bounds["per_principal"], per_host=bounds["per_host"]
        )


class _Image(StrictModel):
    # A sandbox image a run may ask for by name (issue #25), and the trust levels that may.
    tag: str = Field(min_length=1, max_length=200, pattern=r"^[a-z0-9][a-z0-9._/:-]*$")
    trust: list[Literal["trusted", "standard", "untrusted"]] = Field(default_factory=list)
    # Its own warm pool: containers of this image waiting per profile (made at the profile's minimum).
    pool: dict[Literal["trusted", "standard", "untrusted"], int] = Field(default_factory=dict)

    @field_validator("pool")
    @classmethod
    def _pool(cls, sizes: dict[str, int]) -> dict[str, int]:
        for name, size in sizes.items():
            if not 0 <= size <= 16:
                raise ValueError(f"pool size of {name} must be 0 to 16, got {size}")
        return sizes


class _LimitsFile(StrictModel):
    version: Literal[1]
    profiles: dict[Literal["trusted", "standard", "untrusted"], _Profile]
    trust: list[_TrustRule]
    complexity: dict[Literal["lines", "loops", "imports", "calls", "functions", "max_depth"], float] = Field(
        default_factory=lambda: {"lines": 400.0}
    )
    host: _Host
    sampling: _Sampling = _Sampling()
    pool: _Pool = _Pool()
    files: _Files = _Files()
    images: dict[str, _Image] = Field(default_factory=dict)
    sessions: _Sessions = _Sessions()

    @field_validator("images")
    @classmethod
    def _image_names(cls, images: dict[str, _Image]) -> dict[str, _Image]:
        for name in images:
            if name == "default" or not name.isidentifier():
                raise ValueError(f"{name!r} cannot name an image: a word other than 'default', e.g. data")
        return images

    @field_validator("profiles")
    @classmethod
    def _all_profiles(cls, profiles: dict[str, _Profile]) -> dict[str, _Profile]:
        missing = {"trusted", "standard", "untrusted"} - set(profiles)
        if missing:
            raise ValueError(f"missing profile(s): {', '.join(sorted(missing))}")
        return profiles


@dataclass(frozen=True)
class Sampling:
    interval_s: float
    record_every_s: float
    record_above: float


@dataclass(frozen=True)
class PoolPolicy:
    """How many pre-started, one-use containers wait per trust profile (docs/decisions/0015)."""

    sizes: dict[TrustLevel, int] = field(default_factory=dict)
    max_idle_s: float = 300.0


@dataclass(frozen=True)
class LimitsPolicy:
    profiles: dict[TrustLevel, LimitProfile]
    runtimes: dict[TrustLevel, str]
    trust_rules: tuple[TrustRule, ...]
    complexity: ComplexityScale
    host: HostPolicy
    sampling: Sampling
    pool: PoolPolicy = PoolPolicy()
    files: FileBounds = FileBounds()
    images: SandboxImages = SandboxImages()
    image_pools: dict[str, dict[TrustLevel, int]] = field(default_factory=dict)  # per named image: profile to size
    sessions: SessionPolicy = SessionPolicy()


# --- gate.yaml -------------------------------------------------------------------------------


class _GateFile(StrictModel):
    version: Literal[1]
    confirm: list[str] = Field(min_length=1)
    override: list[str]
    answer_within_s: float = Field(gt=0, le=30 * 24 * 3600)


# --- network.yaml ----------------------------------------------------------------------------


class _NetworkFile(StrictModel):
    version: Literal[1]
    allow: list[str] = Field(default_factory=list)
    derive_from_pip: bool = True
    http_ports: list[int] = Field(default_factory=lambda: [80])
    https_ports: list[int] = Field(default_factory=lambda: [443])
    max_download: str | int = "200m"
    max_requests: int = Field(default=500, gt=0, le=100_000)
    trust_levels: list[Literal["trusted", "standard", "untrusted"]] = Field(default_factory=lambda: ["trusted", "standard"])
    upstream_network: str = "bridge"
    proxy_image: str = "mai-safety/egress-proxy:3"

    @field_validator("http_ports", "https_ports")
    @classmethod
    def _ports(cls, ports: list[int]) -> list[int]:
        for port in ports:
            if not 0 < port < 65536:
                raise ValueError(f"{port} is not a TCP port")
        return ports


@dataclass(frozen=True)
class NetworkPolicy:
    egress: EgressPolicy
    derive_from_pip: bool
    upstream_network: str
    proxy_image: str


@dataclass(frozen=True)
class Policies:
    directory: Path
    bandit: BanditPolicy
    limits: LimitsPolicy
    gate: GateRules
    network: NetworkPolicy


def default_max_concurrent(cpu_count: int, per_cpu: int) -> int:
    return max(1, cpu_count * per_cpu)


def load_policies(directory: Path) -> Policies:
    if not directory.is_dir():
        raise ConfigurationError(
            f"policy directory {directory} does not exist: point MAI_SAFETY_POLICIES at the project's policies/ folder"
        )
    assessment = load(directory / "assessment.yaml", _AssessmentFile)
    limits = load(directory / "limits.yaml", _LimitsFile)
    gate = load(directory / "gate.yaml", _GateFile)
    return Policies(
        directory=directory,
        network=_network(directory / "network.yaml"),
        gate=GateRules(
            confirmers=tuple(gate.confirm),
            overriders=tuple(gate.override),
            answer_within=timedelta(seconds=gate.answer_within_s),
        ),
        bandit=BanditPolicy(
            severity={key: RiskLevel(value) for key, value in assessment.bandit.severity.items()},
            min_confidence=assessment.bandit.min_confidence,
            rules={key: RiskLevel(value) for key, value in assessment.bandit.rules.items()},
            failure_level=RiskLevel(assessment.analyzer_failure_level),
        ),
        limits=LimitsPolicy(
            profiles={
                TrustLevel(name): _profile(directory / "limits.yaml", name, profile)
                for name, profile in limits.profiles.items()
            },
            runtimes={TrustLevel(name): profile.runtime for name, profile in limits.profiles.items()},
            trust_rules=tuple(
                TrustRule(Provenance(rule.provenance), RiskLevel(rule.up_to), TrustLevel(rule.trust))
                for rule in limits.trust
            ),
            complexity=ComplexityScale(dict(limits.complexity)),
            host=HostPolicy(
                memory_share=limits.host.memory_share,
                cpu_share=limits.host.cpu_share,
                max_concurrent=(
                    default_max_concurrent(os.cpu_count() or 1, limits.host.executions_per_cpu)
                    if limits.host.max_concurrent == "auto"
                    else limits.host.max_concurrent
                ),
                queue=limits.host.queue,
                queue_wait_s=limits.host.queue_wait_s,
            ),
            sampling=Sampling(**limits.sampling.model_dump()),
            pool=PoolPolicy(
                sizes={TrustLevel(name): size for name, size in limits.pool.sizes.items()},
                max_idle_s=limits.pool.max_idle_s,
            ),
            files=_file_bounds(directory / "limits.yaml", limits.files),
            images=SandboxImages({
                name: NamedImage(image.tag, frozenset(TrustLevel(level) for level in image.trust)) for name, image in limits.images.items()
            }),
            image_pools={name: {TrustLevel(level): size for level, size in image.pool.items()} for name, image in limits.images.items()},
            sessions=limits.sessions.policy(),
        ),
    )


def _file_bounds(path: Path, files: _Files) -> FileBounds:
    sizes = {}
    for key in ("max_input_bytes", "max_inputs_total", "max_output_bytes", "max_outputs_total"):
        try:
            sizes[key] = parse_size(getattr(files, key), key)
        except LimitOutOfPolicy as exc:
            raise ConfigurationError(f"policy file {path}: key files.{key}: {exc.message}") from None
    return FileBounds(max_inputs=files.max_inputs, max_outputs=files.max_outputs, collect_s=files.collect_s, **sizes)


def _profile(path: Path, name: str, profile: _Profile) -> LimitProfile:
    """Each limit is one value or a {min, max} range that code complexity moves within."""

    def bound(key: str, value: Any, side: str, convert: Any) -> Any:
        raw = getattr(value, side) if isinstance(value, _Range) else value
        try:
            return convert(raw, key)
        except (LimitOutOfPolicy, ValueError, TypeError) as exc:
            message = exc.message if isinstance(exc, LimitOutOfPolicy) else f"expected a number, got {raw!r}"
            raise ConfigurationError(f"policy file {path}: key profiles.{name}.{key}: {message}") from None

    def number(raw: Any, key: str) -> float:
        value = float(raw)
        if value <= 0:
            raise ValueError
        return value

    def count(raw: Any, key: str) -> int:
        value = int(raw)
        if value <= 0 or value != float(raw):
            raise ValueError
        return value

    def side(which: str) -> ResourceLimits:
        return ResourceLimits(
            cpus=bound("cpus", profile.cpus, which, number),
            memory_bytes=bound("memory", profile.memory, which, parse_size),
            pids=bound("pids", profile.pids, which, count),
            timeout_s=bound("timeout_s", profile.timeout_s, which, number),
            output_bytes=bound("output", profile.output, which, parse_size),
            tmpfs_bytes=bound("tmpfs", profile.tmpfs, which, parse_size),
            cpu_seconds=bound("cpu_seconds", profile.cpu_seconds, which, number) if profile.cpu_seconds else 0.0,
        )

    minimum, maximum = side("min"), side("max")
    for key in ("cpus", "memory_bytes", "pids", "timeout_s", "output_bytes", "tmpfs_bytes", "cpu_seconds"):
        if getattr(minimum, key) > getattr(maximum, key):
            raise ConfigurationError(f"policy file {path}: key profiles.{name}: the min of {key} is above its max")
    return LimitProfile(minimum, maximum)


def _network(path: Path) -> NetworkPolicy:
    network = load(path, _NetworkFile)
    allow = []
    for index, entry in enumerate(network.allow):
        try:
            allow.append(check_allow_entry(entry))
        except DomainError as exc:
            raise ConfigurationError(f"policy file {path}: key allow.{index}: {exc.message}") from None
    try:
        max_bytes = parse_size(network.max_download, "max_download")
    except LimitOutOfPolicy as exc:
        raise ConfigurationError(f"policy file {path}: key max_download: {exc.message}") from None
    return NetworkPolicy(
        egress=EgressPolicy(
            allow=tuple(allow),
            http_ports=tuple(network.http_ports),
            https_ports=tuple(network.https_ports),
            max_bytes=max_bytes,
            max_requests=network.max_requests,
            trust_levels=tuple(TrustLevel(level) for level in network.trust_levels),
        ),
        derive_from_pip=network.derive_from_pip,
        upstream_network=network.upstream_network,
        proxy_image=network.proxy_image,
    )
