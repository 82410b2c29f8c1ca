"""Fitting requested limits into a trust level's profile, with no I/O."""

from __future__ import annotations

import pytest

from mai_safety.domain.errors import LimitOutOfPolicy
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.domain.limits import RequestedLimits, ResourceLimits, TrustRule, fit_limits, parse_size, trust_for

PROFILE = ResourceLimits(cpus=2, memory_bytes=2**30, pids=256, timeout_s=120, output_bytes=2**23, tmpfs_bytes=2**28)


def test_a_request_lowers_only_what_it_names() -> None:
    fitted = fit_limits(PROFILE, RequestedLimits(memory_bytes=128 * 2**20, timeout_s=3), TrustLevel.TRUSTED)
    assert fitted.memory_bytes == 128 * 2**20
    assert fitted.timeout_s == 3
    assert fitted.cpus == PROFILE.cpus and fitted.pids == PROFILE.pids


@pytest.mark.parametrize(
    "requested",
    [RequestedLimits(memory_bytes=2**31), RequestedLimits(cpus=4), RequestedLimits(timeout_s=121), RequestedLimits(pids=0)],
)
def test_a_request_above_the_profile_or_not_positive_is_refused(requested: RequestedLimits) -> None:
    with pytest.raises(LimitOutOfPolicy):
        fit_limits(PROFILE, requested, TrustLevel.TRUSTED)


@pytest.mark.parametrize(("text", "size"), [("128m", 128 * 2**20), ("1g", 2**30), ("64KiB", 64 * 1024), ("512", 512)])
def test_sizes_read_binary_units(text: str, size: int) -> None:
    assert parse_size(text, "memory") == size


@pytest.mark.parametrize("text", ["lots", "-5m", "0", "12q"])
def test_a_size_that_is_not_one_is_refused(text: str) -> None:
    with pytest.raises(LimitOutOfPolicy):
        parse_size(text, "--memory")


def test_trust_follows_provenance_and_level() -> None:
    rules = (
        TrustRule(Provenance.USER, RiskLevel.LOW, TrustLevel.TRUSTED),
        TrustRule(Provenance.MAI, RiskLevel.MEDIUM, TrustLevel.STANDARD),
    )
    assert trust_for(rules, Provenance.USER, RiskLevel.LOW) is TrustLevel.TRUSTED
    assert trust_for(rules, Provenance.MAI, RiskLevel.MEDIUM) is TrustLevel.STANDARD
    assert trust_for(rules, Provenance.MAI, RiskLevel.HIGH) is TrustLevel.UNTRUSTED
    assert trust_for(rules, Provenance.EXTERNAL, RiskLevel.LOW) is TrustLevel.UNTRUSTED
