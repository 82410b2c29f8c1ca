"""The network policy's pure rules: allow-list entries, declared requirements, known threats."""

from __future__ import annotations

import pytest

from mai_safety.domain.errors import DomainError, InvalidSubmission
from mai_safety.domain.levels import TrustLevel
from mai_safety.domain.network import (
    EgressPolicy,
    KnownThreats,
    NetworkNotAllowed,
    check_allow_entry,
    requirement_name,
    requirements_in_header,
)


@pytest.mark.parametrize("entry", ["docs.example.org", "*.example.org", "Docs.Example.Org.", "a-b.c-d.example"])
def test_host_names_and_leading_wildcards_are_allow_list_entries(entry: str) -> None:
    assert check_allow_entry(entry) == entry.lower().rstrip(".")


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ("https://docs.example.org", "is a URL"),
        ("docs.example.org/path", "is a URL"),
        ("docs.*.org", "wildcard"),
        ("*example.org", "wildcard"),
        ("*.org", "too broad"),
        ("10.0.0.0/8", "is a URL"),
        ("192.168.0.1", "IP address"),
        ("docs.example.org:443", "port"),
        ("", "is empty"),
        ("under_score.example", "not a host name"),
    ],
)
def test_anything_else_is_refused_with_the_entry_named(entry: str, problem: str) -> None:
    with pytest.raises(DomainError, match=problem) as raised:
        check_allow_entry(entry)
    assert repr(entry) in raised.value.message


def test_requirements_are_read_from_the_comment_lines_at_the_top_only() -> None:
    code = "#!/usr/bin/env python3\n# requirements: requests>=2.31, rich\n# requirements: tqdm\nimport os\n# requirements: late\n"
    assert requirements_in_header(code) == ["requests>=2.31", "rich", "tqdm"]


def test_requirement_names_are_normalised() -> None:
    assert requirement_name("Some_Package.Name[extra]>=1") == "some-package-name"


def test_a_known_malicious_requirement_is_refused_before_anything_is_fetched() -> None:
    threats = KnownThreats(frozenset({"setup-tools"}))
    with pytest.raises(InvalidSubmission, match="known-malicious"):
        threats.check_requirements(["requests", "Setup_Tools==1.0"])
    threats.check_requirements(["setuptools"])


def test_only_the_allowed_trust_levels_may_use_the_egress() -> None:
    policy = EgressPolicy(allow=(), trust_levels=(TrustLevel.TRUSTED,))
    policy.check_trust(TrustLevel.TRUSTED)
    with pytest.raises(NetworkNotAllowed, match="standard"):
        policy.check_trust(TrustLevel.STANDARD)
