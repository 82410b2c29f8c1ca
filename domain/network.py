"""Network policy: no network by default; on request, a read-only egress to allow-listed hosts."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from .errors import DomainError, KnownMaliciousRequirement
from .levels import TrustLevel
from .payloads import NetworkRecord

_LABEL = r"(?!-)[a-z0-9-]{1,63}(?<!-)"
_HOST = re.compile(rf"^{_LABEL}(\.{_LABEL})*$")
_IPV4ISH = re.compile(r"^[0-9.]+$")


class NetworkMode(str, Enum):
    NONE = "none"
    DEPS = "deps"  # read-only egress through the proxy, for dependencies and documentation


class NetworkNotAllowed(DomainError):
    """The policy does not let this execution use the network it asked for: its ``trust`` level is
    not among ``allowed_trust``, or its profile's ``runtime`` (runsc) has no networking."""

    def __init__(
        self,
        message: str,
        *,
        trust: str | None = None,
        allowed_trust: tuple[str, ...] | None = None,
        runtime: str | None = None,
    ) -> None:
        super().__init__(message)
        self.trust = trust
        self.allowed_trust = allowed_trust
        self.runtime = runtime


def check_allow_entry(entry: str) -> str:
    """An allow-list entry is a host name or ``*.suffix``: never a URL, an address or a pattern."""
    text = entry.strip().lower().rstrip(".")
    problem = None
    if not text:
        problem = "is empty"
    elif "://" in text or "/" in text:
        problem = "is a URL: write the host name alone, e.g. docs.example.org"
    elif ":" in text:
        problem = "has a port or is an IPv6 address: write the host name alone (ports are set by http_ports / https_ports)"
    elif _IPV4ISH.match(text):
        problem = "is an IP address or range: the egress allows host names only"
    elif text.startswith("*.") and "*" not in text[2:] and _HOST.match(text[2:]):
        if "." not in text[2:]:
            problem = "is too broad: a wildcard must stand for names under a domain, e.g. *.example.org"
        else:
            return text
    elif "*" in text:
        problem = "has a wildcard that is not a leading '*.': write *.example.org or an exact name"
    elif not _HOST.match(text):
        problem = "is not a host name"
    else:
        return text
    raise DomainError(f"allow-list entry {entry!r} {problem}")


@dataclass(frozen=True)
class EgressPolicy:
    allow: tuple[str, ...]
    http_ports: tuple[int, ...] = (80,)
    https_ports: tuple[int, ...] = (443,)
    max_bytes: int = 200 * 1024 * 1024
    max_requests: int = 500
    trust_levels: tuple[TrustLevel, ...] = (TrustLevel.TRUSTED, TrustLevel.STANDARD)

    def check_trust(self, trust: TrustLevel) -> None:
        if trust not in self.trust_levels:
            allowed = ", ".join(level.value for level in self.trust_levels) or "no trust level"
            raise NetworkNotAllowed(
                f"the deps network is not allowed for {trust.value} code (the policy allows: {allowed}); "
                "run it without network",
                trust=trust.value,
                allowed_trust=tuple(level.value for level in self.trust_levels),
            )


def check_runtime_for_network(runtime: str, trust: TrustLevel, wants_network: bool) -> None:
    """runsc runs with its own networking off (decision 0013), so a profile that demands it cannot
    have the dependency egress; ``auto`` gives such a run runc instead, and says so."""
    if runtime == "runsc" and wants_network:
        raise NetworkNotAllowed(
            f"the deps network is refused for {trust.value} code: its profile runs it under gVisor "
            "(runtime runsc), whose networking is off; run it without network, or give the profile "
            "the runtime auto (deps then run under runc, recorded)",
            trust=trust.value,
            runtime=runtime,
        )


@dataclass(frozen=True)
class NetworkRequest:
    """What one execution gets: the mode, and for egress the allow-list, caps, index and requirements."""

    mode: NetworkMode = NetworkMode.NONE
    allow: tuple[str, ...] = ()
    http_ports: tuple[int, ...] = (80,)
    https_ports: tuple[int, ...] = (443,)
    max_bytes: int = 0
    max_requests: int = 0
    index_urls: tuple[str, ...] = ()
    requirements: tuple[str, ...] = ()

    def to_dict(self) -> NetworkRecord:
        return {
            "mode": self.mode.value,
            "allow": list(self.allow),
            "http_ports": list(self.http_ports),
            "https_ports": list(self.https_ports),
            "max_bytes": self.max_bytes,
            "max_requests": self.max_requests,
            "index_urls": list(self.index_urls),
            "requirements": list(self.requirements),
        }

    @classmethod
    def from_dict(cls, data: NetworkRecord) -> "NetworkRequest":
        """The inverse of ``to_dict``, as stored on an event (lists read back as tuples)."""
        return cls(
            mode=NetworkMode(data["mode"]),
            allow=tuple(data["allow"]),
            http_ports=tuple(data["http_ports"]),
            https_ports=tuple(data["https_ports"]),
            max_bytes=int(data["max_bytes"]),
            max_requests=int(data["max_requests"]),
            index_urls=tuple(data["index_urls"]),
            requirements=tuple(data["requirements"]),
        )


_NAME = re.compile(r"^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)")


def requirement_name(requirement: str) -> str:
    """The normalised project name of a requirement already checked by the parser."""
    match = _NAME.match(requirement.strip())
    assert match is not None
    return re.sub(r"[-_.]+", "-", match.group(1)).lower()


def requirements_in_header(code: str) -> list[str]:
    """``# requirements: a, b==1.0`` lines at the top of the file (before the first statement)."""
    found: list[str] = []
    for line in code.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#!") or stripped.startswith("# -*-"):
            continue
        if not stripped.startswith("#"):
            break
        body = stripped.lstrip("#").strip()
        if body.lower().startswith("requirements:"):
            found.extend(part.strip() for part in body.split(":", 1)[1].split(",") if part.strip())
    return found


@dataclass(frozen=True)
class KnownThreats:
    package_names: frozenset[str] = field(default_factory=frozenset)

    def check_requirements(self, requirements: list[str]) -> None:
        for requirement in requirements:
            if requirement_name(requirement) in self.package_names:
                raise KnownMaliciousRequirement(
                    f"requirement {requirement!r} names a known-malicious package (the threat list): "
                    "nothing was fetched; remove it",
                    requirement=requirement,
                )
