"""The application's gate and recording, with fake ports and an in-memory chained ledger."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic

from mai_safety.application.errors import SandboxUnavailable
from mai_safety.application.access import acting_as
from mai_safety.application.executions import MaiSafety
from mai_safety.application.sizing import ExecutionPolicy
from mai_safety.domain.assessment import Assessment, Submission
from mai_safety.domain.errors import InvalidSubmission, LimitOutOfPolicy
from mai_safety.domain.execution import Execution
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.domain.limits import LimitProfile, RequestedLimits, ResourceLimits, TrustRule
from mai_safety.domain.network import EgressPolicy, KnownThreats, NetworkMode, NetworkRequest
from mai_safety.domain.run_request import RequestNoLongerGranted
from mai_safety.infrastructure.cli.hints import cli_message

from .fakes import FakeAssessor, FakePackageIndex, FakeSandbox

PROFILE = ResourceLimits(cpus=1, memory_bytes=2**29, pids=128, timeout_s=60, output_bytes=2**22, tmpfs_bytes=2**27)
GATE = ExecutionPolicy(
    profiles={trust: PROFILE for trust in TrustLevel},
    trust_rules=(TrustRule(Provenance.MAI, RiskLevel.MEDIUM, TrustLevel.STANDARD),),
    max_code_bytes=1024,
)


def _app(level: RiskLevel = RiskLevel.LOW, sandbox: FakeSandbox | None = None) -> tuple[MaiSafety, FakeSandbox]:
    sandbox = sandbox or FakeSandbox()
    env = {
        "PERSISTENCE_MODULE": "mai_safety.ledger.infrastructure.sqlite",
        "SQLITE_DBNAME": f"file:{uuid.uuid4().hex}?mode=memory&cache=shared",
    }
    return MaiSafety(assessor=FakeAssessor(level), sandbox=sandbox, policy=GATE, env=env), sandbox


def _ledger_size(app: MaiSafety) -> int:
    return app.verify().checked


def test_low_code_is_assessed_started_and_completed_in_that_order() -> None:
    app, sandbox = _app()
    report = app.run(b"print('hello')\n")
    assert report.status == "completed"
    assert [event["event"] for event in app.history(report.execution_id)] == ["Assessed", "Started", "Completed"]
    assert sandbox.discarded == ["fake-1"]
    assert app.verify().intact


@pytest.mark.parametrize(("level", "kind"), [(RiskLevel.HIGH, "confirmation"), (RiskLevel.BLOCKED, "override")])
def test_high_and_blocked_code_waits_without_touching_the_sandbox(level: RiskLevel, kind: str) -> None:
    app, sandbox = _app(level)
    report = app.run(b"import os\n")
    assert report.status == "awaiting_override"
    assert report.override_kind == kind
    assert sandbox.prepared == []
    history = app.history(report.execution_id)
    assert [event["event"] for event in history] == ["Assessed", "OverrideRequested"]
    assert history[1]["kind"] == kind


def test_a_limit_above_the_policy_is_refused_before_anything_is_recorded() -> None:
    app, sandbox = _app()
    with pytest.raises(LimitOutOfPolicy):
        app.run(b"print(1)\n", requested=RequestedLimits(memory_bytes=2**31))
    assert _ledger_size(app) == 0
    assert sandbox.prepared == []


def test_bad_code_is_refused_before_anything_is_recorded() -> None:
    app, _ = _app()
    with pytest.raises(InvalidSubmission):
        app.run(b"print(1)\x00")
    assert _ledger_size(app) == 0


def test_no_sandbox_means_nothing_is_recorded() -> None:
    app, _ = _app(sandbox=FakeSandbox(available=False))
    with pytest.raises(SandboxUnavailable):
        app.run(b"print(1)\n")
    assert _ledger_size(app) == 0


def test_events_carry_the_actor_given_by_the_caller() -> None:
    app, _ = _app()
    with acting_as("mai-assistant"):
        report = app.run(b"print(1)\n")
    assert {event["actor"] for event in app.history(report.execution_id)} == {"mai-assistant"}


def test_the_assessed_event_holds_the_code_and_its_hash() -> None:
    app, _ = _app()
    report = app.run(b"print(1)\n")
    assessed = app.history(report.execution_id)[0]
    assert assessed["code"] == "print(1)\n"
    assert assessed["code_sha256"] == report.code_sha256


# --- a waiting execution keeps what it asked for --------------------------------------------------

NETWORK_GATE = replace(
    GATE,
    # Confirmed code is untrusted; this policy lets it have the egress, so the network part can be seen.
    egress=EgressPolicy(allow=("docs.example.org",), max_bytes=2**20, max_requests=50, trust_levels=(TrustLevel.UNTRUSTED,)),
)
ASKED = RequestedLimits(timeout_s=7, pids=32)


def _waiting_app(gate: ExecutionPolicy = NETWORK_GATE) -> tuple[MaiSafety, FakeSandbox, str]:
    """HIGH code submitted with limits, --network deps and a requirement, waiting for confirmation."""
    sandbox = FakeSandbox()
    env = {
        "PERSISTENCE_MODULE": "mai_safety.ledger.infrastructure.sqlite",
        "SQLITE_DBNAME": f"file:{uuid.uuid4().hex}?mode=memory&cache=shared",
    }
    app = MaiSafety(
        assessor=FakeAssessor(RiskLevel.HIGH), sandbox=sandbox, policy=gate, env=env, package_index=FakePackageIndex()
    )
    report = app.run(b"import os\n", requested=ASKED, network=NetworkMode.DEPS, requirements=["mai-hello==1.0"])
    assert report.status == "awaiting_override" and sandbox.prepared == []
    return app, sandbox, report.execution_id


def test_a_waiting_execution_records_the_limits_network_and_trust_it_asked_for() -> None:
    app, _, execution_id = _waiting_app()
    request = app.history(execution_id)[1]["request"]
    assert (request["provenance"], request["trust"]) == ("mai", "untrusted")
    assert request["requested"] == {"timeout_s": 7, "pids": 32}
    assert (request["limits"]["timeout_s"], request["limits"]["pids"], request["limits"]["memory_bytes"]) == (7, 32, 2**29)
    network = request["network"]
    assert network["mode"] == "deps" and network["requirements"] == ["mai-hello==1.0"]
    assert network["allow"] == ["docs.example.org", "index.test"] and network["index_urls"] == ["http://index.test/simple"]
    assert (network["max_bytes"], network["max_requests"]) == (2**20, 50)
    # Stored as version 2 of the event, so that a later reader knows it holds the request.
    (stored,) = [event for event in app.recorder.select_events(uuid.UUID(execution_id)) if event.originator_version == 2]
    assert b'"class_version":2' in stored.state


def test_an_approved_execution_runs_with_the_limits_and_network_it_asked_for() -> None:
    app, sandbox, execution_id = _waiting_app()
    with acting_as("alice"):
        report = app.approve(execution_id, "reviewed")
    assert report.status == "completed"
    (_, limits), = sandbox.prepared
    assert (limits.timeout_s, limits.pids, limits.memory_bytes) == (7, 32, 2**29)
    (network,) = sandbox.networks
    assert network == NetworkRequest.from_dict(app.history(execution_id)[1]["request"]["network"])
    assert network.requirements == ("mai-hello==1.0",) and network.allow == ("docs.example.org", "index.test")
    started = app.history(execution_id)[3]
    assert started["event"] == "Started" and started["limits"]["timeout_s"] == 7 and started["limits"]["pids"] == 32
    assert started["network"]["mode"] == "deps" and started["trust"] == "untrusted"
    assert started["sizing"]["requested"] == {"timeout_s": 7, "pids": 32}


def test_the_terminal_confirmation_path_runs_what_was_recorded_too() -> None:
    app, sandbox = _app(RiskLevel.HIGH)
    report = app.run(b"import os\n", requested=RequestedLimits(timeout_s=9, memory_bytes=2**27))
    app.approve(report.execution_id, "confirmed at the terminal")
    (_, limits), = sandbox.prepared
    assert (limits.timeout_s, limits.memory_bytes) == (9, 2**27)


def test_an_answer_cannot_change_what_a_waiting_execution_asked_for() -> None:
    app, sandbox, execution_id = _waiting_app()
    before = _ledger_size(app)
    for answer in ({"requested": RequestedLimits(timeout_s=60)}, {"network": NetworkMode.NONE}, {"requirements": ["rich"]}):
        with pytest.raises(InvalidSubmission, match="submit the code again"):
            app.approve(execution_id, "reviewed", **answer)  # type: ignore[arg-type]
    assert _ledger_size(app) == before and sandbox.prepared == []


def _refuse_network_to_untrusted(app: MaiSafety) -> None:
    app.policy = replace(app.policy, egress=replace(app.policy.egress, trust_levels=(TrustLevel.STANDARD,)))


def _lower_the_untrusted_maximum(app: MaiSafety) -> None:
    lower = LimitProfile(minimum=replace(PROFILE, timeout_s=1), maximum=replace(PROFILE, timeout_s=5))
    app.policy = replace(app.policy, profiles={**app.policy.profiles, TrustLevel.UNTRUSTED: lower})


def _drop_the_index_host(app: MaiSafety) -> None:
    app.package_index = FakePackageIndex("http://other-index.test/simple", "other-index.test")


def _shrink_the_download_cap(app: MaiSafety) -> None:
    app.policy = replace(app.policy, egress=replace(app.policy.egress, max_bytes=2**10))


def _name_the_requirement_a_threat(app: MaiSafety) -> None:
    app.policy = replace(app.policy, threats=KnownThreats(frozenset({"mai-hello"})))


def _trust_high_code_more(app: MaiSafety) -> None:
    rules = (TrustRule(Provenance.MAI, RiskLevel.HIGH, TrustLevel.STANDARD),)
    egress = replace(app.policy.egress, trust_levels=(TrustLevel.STANDARD, TrustLevel.UNTRUSTED))
    app.policy = replace(app.policy, trust_rules=rules, egress=egress)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (_refuse_network_to_untrusted, "--network deps is not allowed for untrusted code"),
        (_lower_the_untrusted_maximum, "--timeout 7 is above what the policy allows untrusted code (5)"),
        (_drop_the_index_host, "the egress allow-list no longer holds index.test"),
        (_shrink_the_download_cap, "the download cap is now 1 KiB, below the 1 MiB it was given"),
        (_name_the_requirement_a_threat, "known-malicious"),
        (_trust_high_code_more, "it was sized as untrusted code, and the policy now makes it standard"),
    ],
)
def test_an_answer_the_policy_in_force_no_longer_grants_is_refused_and_nothing_runs_or_is_written(
    change: Callable[[MaiSafety], None], said: str
) -> None:
    app, sandbox, execution_id = _waiting_app()
    before = _ledger_size(app)
    change(app)
    with pytest.raises(RequestNoLongerGranted, match="no longer grants") as refused:
        app.approve(execution_id, "reviewed")
    assert "Nothing ran: deny it and submit the code again" in refused.value.message
    assert said in cli_message(refused.value)  # the CLI names its flags and policy files
    assert "--" not in refused.value.message and "policies/" not in refused.value.message  # the domain does not
    assert _ledger_size(app) == before and sandbox.prepared == []
    assert app.report(execution_id).status == "awaiting_override"


def _stored_before_requests_were_kept(app: MaiSafety) -> str:
    """HIGH code left waiting by a release that did not keep the request: OverrideRequested v1."""
    submission = Submission.from_bytes(b"import os\n", Provenance.MAI, 1024)
    execution = Execution.assess(submission, Assessment(level=RiskLevel.HIGH, analyzers=("fake",)))
    app.save(execution)
    now = datetime.now(timezone.utc)
    state = {
        "timestamp": now,
        "actor": "mai",
        "kind": "confirmation",
        "reason": "HIGH code needs the user's confirmation",
        "answer_by": (now + timedelta(hours=1)).isoformat(),
    }
    app.recorder.insert_events(
        [
            StoredEvent(
                originator_id=execution.id,
                originator_version=2,
                topic=get_topic(Execution.OverrideRequested),
                state=app.mapper.transcoder.encode(state),
            )
        ]
    )
    return str(execution.id)


def test_an_override_requested_event_stored_before_requests_were_kept_reads_as_version_2_without_one() -> None:
    app, _ = _app(RiskLevel.HIGH)
    execution_id = _stored_before_requests_were_kept(app)
    (stored,) = [event for event in app.recorder.select_events(uuid.UUID(execution_id)) if event.originator_version == 2]
    assert b"class_version" not in stored.state and b"request" not in stored.state
    event = app.mapper.to_domain_event(stored)
    assert isinstance(event, Execution.OverrideRequested) and event.request is None and event.kind == "confirmation"
    assert app.report(execution_id).status == "awaiting_override"
    assert app.verify().intact  # the chains cover the stored bytes, which the upcast does not touch


def test_an_old_waiting_execution_without_a_recorded_request_runs_with_the_answers_own_limits() -> None:
    app, sandbox = _app(RiskLevel.HIGH)
    execution_id = _stored_before_requests_were_kept(app)
    app.approve(execution_id, "reviewed", requested=RequestedLimits(timeout_s=5))
    (_, limits), = sandbox.prepared
    assert limits.timeout_s == 5 and sandbox.networks[0].mode is NetworkMode.NONE
    assert app.history(execution_id)[-1]["event"] == "Completed"
