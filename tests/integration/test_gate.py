"""The gate end to end through the CLI: confirmation, accountable override, refusal, expiry.

Real Bandit with a policy under test (exec is BLOCKED, eval is HIGH), real Docker, both ledgers;
each test reads the recorded events back, with their actor and explanation."""

from __future__ import annotations

import json
import time
from pathlib import Path

import docker
import pytest

from .cli_helpers import gate_test_policies, policies_with, run_cli

BLOCKED_CODE = b"exec('print(40 + 2)')\n"
HIGH_CODE = b"print(eval('6 * 7'))\n"


@pytest.fixture
def env(tmp_path: Path, postgres_url: str, docker_client: docker.DockerClient) -> dict[str, str]:
    """The gate's whole path, containers included, runs once, on production's ledger (Postgres);
    the ledger's contract has its own tests over both backends."""
    return {
        "MAI_SAFETY_DATABASE_URL": postgres_url,
        "MAI_SAFETY_POLICIES": str(gate_test_policies(tmp_path)),
        "MAI_SAFETY_ACTOR": "mai-assistant",
    }


def _json(result) -> dict:  # type: ignore[no-untyped-def]
    assert result.stdout, result.stderr
    return json.loads(result.stdout)


def _history(env: dict[str, str], execution_id: str) -> list[dict]:
    return json.loads(run_cli(["history", execution_id, "--json"], env).stdout)


def test_blocked_code_does_not_run_until_an_allowed_actor_overrides_it_with_an_explanation(env: dict[str, str]) -> None:
    waiting = _json(run_cli(["run", "-", "--json"], env, stdin=BLOCKED_CODE))
    assert waiting["status"] == "awaiting_override" and waiting["override_kind"] == "override"
    execution_id = waiting["execution_id"]

    refused = run_cli(["approve", execution_id, "--explanation", "trust me"], env)
    assert refused.returncode == 7 and "may not override" in refused.stderr
    missing = run_cli(["approve", execution_id], {**env, "MAI_SAFETY_ACTOR": "security-officer"})
    assert missing.returncode == 2 and "written explanation" in missing.stderr

    approved = run_cli(
        ["approve", execution_id, "--explanation", "reviewed: prints a constant", "--json"],
        {**env, "MAI_SAFETY_ACTOR": "security-officer"},
    )
    assert approved.returncode == 0, approved.stderr
    assert _json(approved)["stdout"] == "42\n"
    history = _history(env, execution_id)
    # Samples, one a second, depend on how long the run took (longer under gVisor, decision 0013).
    steps = [event["event"] for event in history if event["event"] != "ResourceSampled"]
    assert steps == ["Assessed", "OverrideRequested", "Overridden", "Started", "Completed"]
    overridden = history[2]
    assert (overridden["actor"], overridden["kind"], overridden["explanation"]) == (
        "security-officer",
        "override",
        "reviewed: prints a constant",
    )
    assert history[3]["trust"] == "untrusted"


def test_run_with_an_override_from_an_allowed_actor_runs_at_once(env: dict[str, str]) -> None:
    result = run_cli(
        ["run", "-", "--override", "incident drill 7", "--json"], {**env, "MAI_SAFETY_ACTOR": "security-officer"}, BLOCKED_CODE
    )
    assert result.returncode == 0, result.stderr
    report = _json(result)
    events = _history(env, report["execution_id"])
    assert [event["event"] for event in events][:3] == ["Assessed", "OverrideRequested", "Overridden"]
    assert events[2]["explanation"] == "incident drill 7"


def test_an_override_from_someone_not_allowed_records_nothing(env: dict[str, str]) -> None:
    result = run_cli(["run", "-", "--override", "please", "--json"], env, BLOCKED_CODE)
    assert result.returncode == 7
    assert "Traceback" not in result.stderr
    assert json.loads(run_cli(["audit", "verify", "--json"], env).stdout)["checked"] == 0


def test_high_code_runs_after_confirmation(env: dict[str, str]) -> None:
    result = run_cli(["run", "-", "--confirm", "--json"], env, HIGH_CODE)
    assert result.returncode == 0, result.stderr
    report = _json(result)
    assert report["level"] == "HIGH" and report["stdout"] == "42\n"
    events = _history(env, report["execution_id"])
    assert events[2]["event"] == "Overridden" and events[2]["kind"] == "confirmation"
    assert events[2]["actor"] == "mai-assistant"


def test_a_denied_execution_ends_unrun_with_the_reason_and_actor(env: dict[str, str]) -> None:
    waiting = _json(run_cli(["run", "-", "--json"], env, HIGH_CODE))
    denied = run_cli(["deny", waiting["execution_id"], "--reason", "not needed", "--json"], {**env, "MAI_SAFETY_ACTOR": "alice"})
    assert denied.returncode == 4
    assert _json(denied)["status"] == "rejected"
    terminated = _history(env, waiting["execution_id"])[-1]
    assert (terminated["event"], terminated["reason"], terminated["actor"]) == ("Terminated", "denied", "alice")
    assert terminated["outcome"]["detail"] == "not needed"
    again = run_cli(["approve", waiting["execution_id"]], env)
    assert again.returncode == 2 and "rejected" in again.stderr


def test_no_answer_in_time_ends_the_execution_unrun(tmp_path: Path, postgres_url: str, docker_client: docker.DockerClient) -> None:
    env = {
        "MAI_SAFETY_DATABASE_URL": postgres_url,
        "MAI_SAFETY_POLICIES": str(gate_test_policies(tmp_path, answer_within_s=1)),
    }
    waiting = _json(run_cli(["run", "-", "--json"], env, HIGH_CODE))
    time.sleep(1.5)  # let the answer time pass; nothing here measures speed
    late = run_cli(["approve", waiting["execution_id"]], env)
    assert late.returncode == 4 and "no_answer" in late.stderr
    history = _history(env, waiting["execution_id"])
    assert [event["event"] for event in history] == ["Assessed", "OverrideRequested", "Terminated"]
    assert history[-1]["reason"] == "no_answer"


def test_an_approved_execution_runs_with_the_limits_it_asked_for_when_the_policy_still_grants_them(
    env: dict[str, str], tmp_path: Path
) -> None:
    waiting = run_cli(["run", "-", "--timeout", "7", "--pids", "32", "--json"], env, HIGH_CODE)
    assert waiting.returncode == 3, waiting.stderr
    execution_id = _json(waiting)["execution_id"]
    asked = _history(env, execution_id)[1]["request"]
    assert asked["requested"] == {"timeout_s": 7, "pids": 32} and asked["trust"] == "untrusted"

    # An answer cannot change what was asked.
    changed = run_cli(["approve", execution_id, "--timeout", "20"], env)
    assert changed.returncode == 2 and "approve takes no --timeout" in changed.stderr
    # A policy that no longer grants it: one line, exit 7, nothing runs and nothing is written.
    stricter = policies_with(
        tmp_path / "stricter",
        assessment={"bandit.rules": {"B102": "BLOCKED", "B307": "HIGH"}},
        limits={"profiles.untrusted.timeout_s": {"min": 3, "max": 5}},
    )
    refused = run_cli(["approve", execution_id], {**env, "MAI_SAFETY_POLICIES": str(stricter)})
    assert refused.returncode == 7, refused.stderr
    assert refused.stderr.count("\n") == 1 and "no longer grants" in refused.stderr and "--timeout 7" in refused.stderr
    assert [event["event"] for event in _history(env, execution_id)] == ["Assessed", "OverrideRequested"]

    approved = run_cli(["approve", execution_id, "--json"], {**env, "MAI_SAFETY_ACTOR": "alice"})
    assert approved.returncode == 0, approved.stderr
    assert _json(approved)["stdout"] == "42\n"
    started = next(event for event in _history(env, execution_id) if event["event"] == "Started")
    assert (started["limits"]["timeout_s"], started["limits"]["pids"]) == (7, 32)
    assert started["sizing"]["requested"] == {"timeout_s": 7, "pids": 32}
