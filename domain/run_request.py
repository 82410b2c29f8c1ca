"""What a submission asked to run with, kept on ``OverrideRequested`` while it waits for an answer.

A confirmation or an override runs exactly this, never what the answering command happens to pass:
the limits it was sized to, the network it was given (mode, allow-list, ports, caps, package
indexes, requirements), and the provenance and trust it was sized under. Between the question and
the answer the policy may change; what it no longer grants is refused, and nothing runs.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .errors import DomainError
from .levels import Provenance, TrustLevel
from .limits import RequestedLimits, ResourceLimits, format_size
from .network import NetworkMode, NetworkRequest
from .payloads import RunRequestRecord


class RequestNoLongerGranted(DomainError):
    """A waiting execution asked for something the policy in force no longer grants; ``refusal``:
    the policy's own error, when one said so (a limit, the network, a requirement)."""

    def __init__(self, message: str, *, refusal: DomainError | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal


@dataclass(frozen=True)
class RunRequest:
    provenance: Provenance
    trust: TrustLevel
    requested: RequestedLimits  # what the caller asked for, field by field (None: not asked)
    limits: ResourceLimits  # what it was sized to: the profile at its complexity, then the request
    network: NetworkRequest
    image: str = "default"  # a named sandbox image (domain.images); kept only when not the default

    def to_dict(self) -> RunRequestRecord:
        record: RunRequestRecord = {
            "provenance": self.provenance.value,
            "trust": self.trust.value,
            "requested": self.requested.to_dict(),
            "limits": self.limits.to_dict(),
            "network": self.network.to_dict(),
        }
        if self.image != "default":
            record["image"] = self.image
        return record

    @classmethod
    def from_dict(cls, data: RunRequestRecord) -> "RunRequest":
        return cls(
            provenance=Provenance(data["provenance"]),
            trust=TrustLevel(data["trust"]),
            requested=RequestedLimits(**data["requested"]),
            limits=ResourceLimits.from_dict(data["limits"]),
            network=NetworkRequest.from_dict(data["network"]),
            image=data.get("image", "default"),
        )

    def not_granted_by(self, trust: TrustLevel, maximum: ResourceLimits, network: NetworkRequest) -> list[str]:
        """What of this request the policy in force does not grant, given what it gives the same
        code now: its ``trust``, that trust's ``maximum`` limits, and the ``network`` it would get."""
        problems: list[str] = []
        if trust is not self.trust:
            problems.append(f"it was sized as {self.trust.value} code, and the policy now makes it {trust.value}")
        for field in fields(ResourceLimits):
            asked, ceiling = getattr(self.limits, field.name), getattr(maximum, field.name)
            if asked > ceiling:
                problems.append(f"{field.name} {_shown(field.name, asked)} is above the most {trust.value} code may have now ({_shown(field.name, ceiling)})")
        problems.extend(_network_not_granted(self.network, network))
        return problems


def _network_not_granted(asked: NetworkRequest, granted: NetworkRequest) -> list[str]:
    if asked.mode is NetworkMode.NONE:
        return []
    if granted.mode is not asked.mode:
        return [f"network {asked.mode.value} is no longer granted"]
    problems = []
    hosts = [host for host in asked.allow if host not in granted.allow]
    if hosts:
        problems.append(f"the egress allow-list no longer holds {', '.join(hosts)}")
    ports = sorted(set(asked.http_ports) - set(granted.http_ports)) + sorted(set(asked.https_ports) - set(granted.https_ports))
    if ports:
        problems.append(f"the egress no longer allows port(s) {', '.join(str(port) for port in ports)}")
    if asked.max_bytes > granted.max_bytes:
        problems.append(f"the download cap is now {format_size(granted.max_bytes)}, below the {format_size(asked.max_bytes)} it was given")
    if asked.max_requests > granted.max_requests:
        problems.append(f"the request cap is now {granted.max_requests}, below the {asked.max_requests} it was given")
    return problems


def _shown(name: str, value: float) -> str:
    return format_size(int(value)) if name.endswith("_bytes") else f"{value:g}"


__all__ = ["RequestNoLongerGranted", "RunRequest"]
