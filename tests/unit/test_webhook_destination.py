"""Where a webhook may point (infrastructure/alerts/destination.py): the rule on addresses."""

from __future__ import annotations

import ipaddress

import pytest

from mai_safety.infrastructure.alerts.destination import RefusedDestination, check_url, why_refused


@pytest.mark.parametrize(
    "address", ["169.254.169.254", "169.254.0.1", "fe80::1", "::ffff:169.254.169.254", "fd00:ec2::254", "100.100.100.200", "0.0.0.0", "::", "224.0.0.1"]
)
def test_link_local_metadata_and_non_host_addresses_are_refused(address: str) -> None:
    assert why_refused(ipaddress.ip_address(address), allow_loopback=True) is not None


@pytest.mark.parametrize("address", ["127.0.0.1", "::1", "::ffff:127.0.0.1"])
def test_loopback_is_refused_unless_allowed(address: str) -> None:
    assert "loopback" in (why_refused(ipaddress.ip_address(address), allow_loopback=False) or "")
    assert why_refused(ipaddress.ip_address(address), allow_loopback=True) is None


@pytest.mark.parametrize("address", ["10.1.2.3", "192.168.1.10", "203.0.113.7", "2001:db8::1"])
def test_other_hosts_public_or_private_are_allowed(address: str) -> None:
    assert why_refused(ipaddress.ip_address(address), allow_loopback=False) is None


def test_a_metadata_name_and_localhost_are_refused_before_any_look_up() -> None:
    for url in ("http://metadata.google.internal./x", "http://localhost:8080/x", "http://a.localhost/x"):
        with pytest.raises(RefusedDestination):
            check_url(url, allow_loopback=False)
    check_url("https://alerts.example.org/x", allow_loopback=False)  # a name: judged at each send
