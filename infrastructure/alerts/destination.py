"""Where a webhook may point: never at a link-local address or a cloud's metadata service, and not
at this host's loopback unless the operator says so (``MAI_SAFETY_WEBHOOK_LOOPBACK=allow``: the
suite's listener, a receiver on the same host). Checked twice: when the policy is validated (a
literal address, a known metadata name) and at each send, on every address the name resolves to;
the request then goes to the address that was checked, so a name that changes its answer between
the check and the connection (DNS rebinding) gains nothing."""

from __future__ import annotations

import ipaddress
import os
import socket
from urllib.parse import urlsplit

LOOPBACK_SETTING = "MAI_SAFETY_WEBHOOK_LOOPBACK"
#: Names of metadata services (AWS, GCP, Azure, Alibaba, OpenStack and the like), refused before any look-up.
METADATA_NAMES = frozenset(
    {"metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal",
     "metadata.azure.internal", "metadata.platformequinix.com", "metadata.tencentyun.com"}
)
#: Metadata addresses outside the link-local ranges.
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(address) for address in ("fd00:ec2::254", "100.100.100.200", "168.63.129.16", "169.254.169.254")
)
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class RefusedDestination(Exception):
    """The webhook's address is one it may not have; the message says which and why."""


def loopback_allowed() -> bool:
    return os.environ.get(LOOPBACK_SETTING, "").strip().lower() in ("allow", "1", "yes", "true")


def why_refused(address: Address, *, allow_loopback: bool) -> str | None:
    """Why an alert may not go to ``address``, or None."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address in METADATA_ADDRESSES:
        return "a cloud metadata service"
    if address.is_link_local:
        return "link-local (169.254.0.0/16, fe80::/10), where metadata services answer"
    if address.is_loopback:
        return None if allow_loopback else f"this host's loopback (set {LOOPBACK_SETTING}=allow for a receiver on this host)"
    if address.is_unspecified or address.is_multicast or address.is_reserved:
        return "not a host's address"
    return None


def check_url(url: str, *, allow_loopback: bool) -> None:
    """At validation: refuse a metadata name, or a literal address that is refused."""
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if host in METADATA_NAMES:
        raise RefusedDestination(f"{host} is a cloud metadata service")
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        if host == "localhost" or host.endswith(".localhost"):
            address = ipaddress.ip_address("127.0.0.1")
        else:
            return  # a name: checked again on what it resolves to, at each send
    why = why_refused(address, allow_loopback=allow_loopback)
    if why is not None:
        raise RefusedDestination(f"{host} is {why}")


def resolve_checked(url: str, *, allow_loopback: bool) -> str:
    """At send: the address to connect to, after checking every address the host resolves to."""
    parts = urlsplit(url)
    host = (parts.hostname or "").rstrip(".").lower()
    check_url(url, allow_loopback=allow_loopback)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        answers = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise RefusedDestination(f"{host} does not resolve ({exc})") from None
    addresses = [ipaddress.ip_address(str(answer[4][0]).split("%")[0]) for answer in answers]
    for address in addresses:
        why = why_refused(address, allow_loopback=allow_loopback)
        if why is not None:
            raise RefusedDestination(f"{host} resolves to {address}, {why}")
    if not addresses:
        raise RefusedDestination(f"{host} resolves to no address")
    return str(addresses[0])
