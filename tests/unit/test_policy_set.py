"""The policy set aggregate, the hard rules a policy may not weaken, and a revision's diff: no I/O."""

from __future__ import annotations

from datetime import timedelta

from mai_safety.application.policies import changed_files, unified_diff
from mai_safety.domain.code_diff import code_diff
from mai_safety.domain.execution import Execution
from mai_safety.domain.gate import GateRules
from mai_safety.domain.hard_rules import HostCapacity, PolicyUnderReview, weakenings
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.domain.limits import LimitProfile, ResourceLimits, TrustRule
from mai_safety.domain.network import EgressPolicy
from mai_safety.domain.policy_set import POLICY_SET_ID, PolicySet

HOST = HostCapacity(cpus=2, memory_bytes=4 << 30)


def _limits(cpus: float, memory: int) -> LimitProfile:
    return LimitProfile.fixed(ResourceLimits(cpus, memory, 64, 30, 1 << 20, 1 << 20))


def _policy(**changes: object) -> PolicyUnderReview:
    base: dict[str, object] = dict(
        gate=GateRules(confirmers=("*",), overriders=("security-officer",), answer_within=timedelta(hours=1)),
        profiles={TrustLevel.STANDARD: _limits(1, 512 << 20), TrustLevel.UNTRUSTED: _limits(0.5, 256 << 20)},
        trust_rules=(TrustRule(Provenance.MAI, RiskLevel.MEDIUM, TrustLevel.STANDARD),),
        egress=EgressPolicy(allow=()),
        failure_levels={"analysis.yaml: failure_level": RiskLevel.MEDIUM},
        runtimes={TrustLevel.STANDARD: "runc", TrustLevel.UNTRUSTED: "auto"},
    )
    base.update(changes)
    return PolicyUnderReview(**base)  # type: ignore[arg-type]


def test_applying_records_the_next_version_with_hashes_text_and_diff() -> None:
    policy_set = PolicySet.open()
    policy_set.apply({"gate.yaml": {"sha256": "ab" * 32, "text": "version: 1\n"}}, "--- a\n+++ b\n")
    policy_set.apply({"gate.yaml": {"sha256": "cd" * 32, "text": "version: 1\n# 2\n"}}, "")
    opened, first, second = policy_set.collect_events()
    assert policy_set.id == POLICY_SET_ID and isinstance(opened, PolicySet.Opened)
    assert (first.policy_version, first.previous_version, second.policy_version) == (1, 0, 2)  # type: ignore[attr-defined]
    assert policy_set.policy_version == 2 and policy_set.hashes == {"gate.yaml": "cd" * 32}


def test_the_shipped_shape_weakens_no_hard_rule() -> None:
    assert weakenings(_policy(), HOST) == []


def test_an_override_pattern_that_matches_anyone_is_refused() -> None:
    gate = GateRules(confirmers=("*",), overriders=("*",), answer_within=timedelta(hours=1))
    (problem,) = weakenings(_policy(gate=gate), HOST)
    assert problem.startswith("gate.yaml: override: '*' matches anyone")


def test_network_for_untrusted_code_is_refused() -> None:
    egress = EgressPolicy(allow=(), trust_levels=(TrustLevel.STANDARD, TrustLevel.UNTRUSTED))
    assert weakenings(_policy(egress=egress), HOST) == ["network.yaml: trust_levels: untrusted code never gets a network: remove untrusted"]


def test_external_or_gated_code_earning_more_than_untrusted_is_refused() -> None:
    rules = (
        TrustRule(Provenance.EXTERNAL, RiskLevel.LOW, TrustLevel.STANDARD),
        TrustRule(Provenance.USER, RiskLevel.HIGH, TrustLevel.TRUSTED),
    )
    problems = weakenings(_policy(trust_rules=rules), HOST)
    assert [problem.split(":")[1].strip() for problem in problems] == ["trust.0", "trust.1"]


def test_limits_above_the_host_and_untrusted_above_standard_are_refused() -> None:
    profiles = {TrustLevel.STANDARD: _limits(1, 512 << 20), TrustLevel.UNTRUSTED: _limits(4, 8 << 30)}
    problems = weakenings(_policy(profiles=profiles), HOST)
    assert any("profiles.untrusted.cpus: 4 is more than the host's 2" in problem for problem in problems)
    assert any("profiles.untrusted.memory" in problem and "more than the host" in problem for problem in problems)
    assert "limits.yaml: profiles.untrusted.cpus: more than the standard profile's maximum" in problems


def test_a_policy_that_takes_untrusted_code_off_gvisor_is_refused() -> None:
    for weaker in ({TrustLevel.UNTRUSTED: "runc"}, {TrustLevel.STANDARD: "runsc"}):  # runc, or absent: runc
        (problem,) = weakenings(_policy(runtimes=weaker), HOST)
        assert problem.startswith("limits.yaml: profiles.untrusted.runtime: runc ") and "gVisor" in problem
    for stronger in ("auto", "runsc"):
        assert weakenings(_policy(runtimes={TrustLevel.UNTRUSTED: stronger}), HOST) == []


def test_an_analyzer_failure_rated_low_is_refused() -> None:
    (problem,) = weakenings(_policy(failure_levels={"analysis.yaml: failure_level": RiskLevel.LOW}), HOST)
    assert "fail closed" in problem


def test_a_revision_diff_is_bounded_and_marked_when_cut() -> None:
    assert code_diff("a\n", "a\n", "x", "y") == ""
    assert "-print(1)\n+print(2)\n" in code_diff("print(1)", "print(2)", "x", "y")
    cut = code_diff("", "x = 1\n" * 10_000, "x", "y", limit=1024)
    assert len(cut.encode()) < 1200 and cut.rstrip().endswith("]") and "[diff cut at 1024 bytes" in cut


def test_a_policy_diff_names_each_changed_added_and_removed_file() -> None:
    diff = unified_diff({"a.yaml": "x: 1\n", "gone.yaml": "y\n"}, {"a.yaml": "x: 2\n", "new.yaml": "z\n"})
    assert "--- a/a.yaml" in diff and "+++ /dev/null" in diff and "--- /dev/null\n+++ b/new.yaml" in diff
    assert changed_files(diff) == ["a.yaml", "gone.yaml", "new.yaml"]


def test_assessed_version_1_reads_with_no_policy_version_and_no_revision() -> None:
    state: dict[str, object] = {"code": "x"}
    Execution.Assessed.upcast_v1_v2(state)
    assert state == {"code": "x", "policy_version": None, "revises": None, "code_diff": None}
    started: dict[str, object] = {}
    Execution.Started.upcast_v1_v2(started)
    assert started == {"policy_version": None}
