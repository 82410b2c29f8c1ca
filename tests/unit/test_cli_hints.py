"""The domain says what went wrong, as fields and a plain message; the CLI words it with its flags,
variables and policy files, and the HTTP API names the JSON field (issue #12)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from mai_safety.domain.errors import ExplanationMissing, KnownMaliciousRequirement, LimitOutOfPolicy, MaiSafetyError, SubmissionTooLarge
from mai_safety.domain.gate import GateRules, NotPermitted
from mai_safety.domain.limits import RequestedLimits, ResourceLimits, fit_limits
from mai_safety.domain.levels import TrustLevel
from mai_safety.domain.network import EgressPolicy, KnownThreats, NetworkNotAllowed, check_runtime_for_network
from mai_safety.domain.assessment import check_submission_bytes
from mai_safety.domain.run_request import RequestNoLongerGranted
from mai_safety.infrastructure.cli.hints import cli_message, field_hint
from mai_safety.infrastructure.http.problems import problem_for

MAXIMUM = ResourceLimits(cpus=1, memory_bytes=2**27, pids=64, timeout_s=60, output_bytes=2**16, tmpfs_bytes=2**20)
CLI_WORDS = ("--", "policies/", "MAI_SAFETY_")


def _raised(action: object) -> MaiSafetyError:
    with pytest.raises(MaiSafetyError) as caught:
        action()  # type: ignore[operator]
    return caught.value


def test_a_limit_above_the_policy_carries_its_name_and_values_and_the_cli_names_the_flag() -> None:
    error = _raised(lambda: fit_limits(MAXIMUM, RequestedLimits(timeout_s=100), TrustLevel.STANDARD))
    assert isinstance(error, LimitOutOfPolicy)
    assert (error.limit, error.asked, error.allowed, error.trust) == ("timeout_s", 100, 60, "standard")
    assert not any(word in error.message for word in CLI_WORDS)
    assert cli_message(error) == (
        "--timeout 100 is above what the policy allows standard code (60): "
        "ask for at most that, or change the profile in policies/limits.yaml"
    )
    assert b'"field":"limits.timeout_s"' in problem_for(error).body
    assert "--" not in problem_for(error).body.decode()


def test_a_limit_that_is_not_positive_names_the_flag_on_the_cli() -> None:
    error = _raised(lambda: fit_limits(MAXIMUM, RequestedLimits(memory_bytes=-1), TrustLevel.STANDARD))
    assert cli_message(error) == "--memory must be more than zero, got -1"


def test_a_gate_refusal_carries_the_actor_and_who_is_allowed() -> None:
    rules = GateRules(confirmers=("*",), overriders=("security-officer",), answer_within=timedelta(hours=1))
    error = _raised(lambda: rules.check_may_answer("override", "mallory"))
    assert isinstance(error, NotPermitted)
    assert (error.actor, error.answer_kind, error.allowed_actors) == ("mallory", "override", ("security-officer",))
    assert not any(word in error.message for word in CLI_WORDS)


def test_a_local_gate_refusal_says_what_the_machines_owner_may_do_not_how_to_claim_a_name() -> None:
    """Locally the actor is whatever MAI_SAFETY_ACTOR says: a refusal that tells the caller to set
    it tells them how to pass as the security officer. It names who may answer and what the owner
    of the machine may change instead."""
    rules = GateRules(confirmers=("*",), overriders=("security-officer",), answer_within=timedelta(hours=1))
    said = cli_message(_raised(lambda: rules.check_may_answer("override", "mallory")))
    assert "MAI_SAFETY_ACTOR" not in said and "act as" not in said
    assert said.startswith("'mallory' may not override BLOCKED code: the policy allows security-officer (policies/gate.yaml)")
    assert said.endswith("only one of them may answer it; who may is for the owner of this machine to change, in policies/gate.yaml (mai-safety policy apply DIR)")


def test_network_refusals_name_the_flag_and_the_policy_file_on_the_cli() -> None:
    by_trust = _raised(lambda: EgressPolicy(allow=()).check_trust(TrustLevel.UNTRUSTED))
    by_runtime = _raised(lambda: check_runtime_for_network("runsc", TrustLevel.STANDARD, wants_network=True))
    for error in (by_trust, by_runtime):
        assert isinstance(error, NetworkNotAllowed) and not any(word in error.message for word in CLI_WORDS)
    assert cli_message(by_trust) == (
        "--network deps is not allowed for untrusted code (policies/network.yaml allows: trusted, standard); run it without network"
    )
    assert cli_message(by_runtime).startswith("--network deps is refused for standard code: policies/limits.yaml runs it")


def test_submission_errors_name_the_variable_the_file_and_the_flag_only_on_the_cli() -> None:
    too_large = _raised(lambda: check_submission_bytes(b"x = 1\n" * 10, 20, "FILE"))
    threat = _raised(lambda: KnownThreats(frozenset({"evil"})).check_requirements(["evil==1.0"]))
    explanation = ExplanationMissing("overriding BLOCKED code needs a written explanation")
    assert isinstance(too_large, SubmissionTooLarge) and (too_large.size, too_large.max_bytes) == (60, 20)
    assert isinstance(threat, KnownMaliciousRequirement) and threat.requirement == "evil==1.0"
    for error in (too_large, threat, explanation):
        assert not any(word in error.message for word in CLI_WORDS)
    assert cli_message(too_large).endswith("split the program or raise MAI_SAFETY_MAX_CODE_BYTES")
    assert "(policies/threats.yaml)" in cli_message(threat)
    assert cli_message(explanation).endswith(": pass --explanation")
    assert b'"field":"explanation"' in problem_for(explanation).body


def test_a_request_no_longer_granted_is_worded_by_the_refusal_inside_it() -> None:
    refusal = _raised(lambda: fit_limits(MAXIMUM, RequestedLimits(pids=100), TrustLevel.UNTRUSTED))
    assert isinstance(refusal, LimitOutOfPolicy)
    error = RequestNoLongerGranted(f"asked for what the policy no longer grants: {refusal.message}. Nothing ran", refusal=refusal)
    assert "--pids 100 is above what the policy allows untrusted code (64)" in cli_message(error)
    assert b'"field":"limits.pids"' in problem_for(error).body


def test_the_thin_client_adds_the_flag_for_the_field_a_problem_names() -> None:
    assert field_hint("limits.memory_bytes") == " (--memory)"
    assert field_hint("explanation") == ": pass --explanation"
    assert field_hint(None) == field_hint("code") == ""
