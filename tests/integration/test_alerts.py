"""Webhook alerts against a real HTTP listener on 127.0.0.1, with executions driven through the
application and the fake ports (no Docker): what alerts, how it is signed, and that delivery never
holds an execution up."""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest

from mai_safety.application.errors import ConfigurationError
from mai_safety.application.ports import RunOutcome
from mai_safety.application.access import acting_as
from mai_safety.application.executions import MaiSafety
from mai_safety.application.sizing import ExecutionPolicy
from mai_safety.domain.gate import GateRules
from mai_safety.domain.levels import Provenance, RiskLevel, TrustLevel
from mai_safety.domain.limits import ResourceLimits, TrustRule
from mai_safety.infrastructure.alerts.follower import AlertFollower
from mai_safety.infrastructure.alerts.policy import AlertsPolicy, WebhookPolicy, load_alerts_policy
from mai_safety.infrastructure.alerts.sender import WebhookSender
from mai_safety.infrastructure.alerts.signing import is_authentic
from mai_safety.infrastructure.settings import PROJECT_ROOT

from ..unit.fakes import FakeAssessor, FakeSandbox
from .webhook_listener import dead_url, webhook_listener

SECRET = b"a-shared-secret-of-enough-bytes"
PROFILE = ResourceLimits(cpus=1, memory_bytes=2**29, pids=128, timeout_s=60, output_bytes=2**22, tmpfs_bytes=2**27)
GATE = ExecutionPolicy(
    profiles={trust: PROFILE for trust in TrustLevel},
    trust_rules=(TrustRule(Provenance.MAI, RiskLevel.MEDIUM, TrustLevel.STANDARD),),
    max_code_bytes=1024,
    rules=GateRules(confirmers=("*",), overriders=("security-*",), answer_within=timedelta(hours=1)),
)
MEMORY_KILLED = RunOutcome(None, "", "", 0, False, 0.5, termination_reason="memory", detail="memory limit", violation={"limit": "memory"})
TIMED_OUT = RunOutcome(None, "", "", 0, False, 60.0, termination_reason="timeout", detail="wall-clock limit")


def an_app(level: RiskLevel = RiskLevel.LOW, outcome: RunOutcome | None = None) -> MaiSafety:
    env = {"PERSISTENCE_MODULE": "mai_safety.ledger.infrastructure.sqlite", "SQLITE_DBNAME": f"file:{uuid.uuid4().hex}?mode=memory&cache=shared"}
    return MaiSafety(assessor=FakeAssessor(level), sandbox=FakeSandbox(outcome), policy=GATE, env=env)


def a_policy(url: str, *, events: tuple[str, ...] = ("blocked", "override", "violation", "verify_failed"), attempts: int = 5, backoff_s: float = 0.0) -> AlertsPolicy:
    return AlertsPolicy(
        webhook=WebhookPolicy(url=url, secret=SECRET, timeout_s=5, attempts=attempts, backoff_s=backoff_s, max_backoff_s=backoff_s, queue=10, allow_loopback=True),
        events=frozenset(events),
        violation_reasons=frozenset({"memory", "pids", "cpu_time", "disk", "output_limit"}),
        poll_s=0.05,
    )


def wait_until(condition: Callable[[], bool], bound_s: float = 30) -> None:
    """Waits for what another thread does; the bound only keeps a broken test from hanging."""
    deadline = time.monotonic() + bound_s
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.01)


def a_follower(app: MaiSafety, policy: AlertsPolicy) -> AlertFollower:
    return AlertFollower(app.recorder, app.mapper, policy, WebhookSender(policy.webhook))


def test_a_blocked_submission_is_alerted_with_a_body_whose_signature_verifies_with_the_secret() -> None:
    app = an_app(RiskLevel.BLOCKED)
    with webhook_listener() as listener:
        follower = a_follower(app, a_policy(listener.url)).start()  # as the service runs it: polling
        report = app.run(b"import os\n")
        assert listener.delivered.wait(30), "the follower never delivered the alert"
        follower.close()
    (received,) = listener.received
    alert = json.loads(received.body)
    assert (alert["kind"], alert["execution_id"], alert["details"]["level"]) == ("blocked", report.execution_id, "BLOCKED")
    assert alert["details"]["findings"] == [{"analyzer": "fake", "rule_id": "F1", "level": "BLOCKED"}]
    assert received.headers["X-Mai-Safety-Signature"].startswith("sha256=")
    now = int(received.headers["X-Mai-Safety-Timestamp"])
    assert is_authentic(SECRET, received.headers, received.body, now=now)
    assert not is_authentic(b"another-secret-of-enough-bytes", received.headers, received.body, now=now)
    assert not is_authentic(SECRET, received.headers, received.body.replace(b"BLOCKED", b"LOW"), now=now)
    assert not is_authentic(SECRET, received.headers, received.body, now=now + 3600)  # a replay, an hour on
    forged = {**received.headers, "X-Mai-Safety-Timestamp": str(now + 3600)}
    assert not is_authentic(SECRET, forged, received.body, now=now + 3600)  # a fresh timestamp breaks the MAC


def test_an_override_reaches_a_listener_that_fails_twice_then_succeeds_once() -> None:
    app = an_app(RiskLevel.BLOCKED)
    with webhook_listener(500, 503) as listener:
        follower = a_follower(app, a_policy(listener.url, events=("override",)))
        waiting = app.run(b"import os\n")
        with acting_as("security-officer"):
            app.approve(waiting.execution_id, "reviewed: it lists a folder")
        assert follower.catch_up() == 1
        follower.close(wait_s=30)
    assert [received.status for received in listener.received] == [500, 503, 200]
    assert len({json.loads(received.body)["id"] for received in listener.received}) == 1  # one alert, tried three times
    assert (follower.sender.delivered, follower.sender.given_up) == (1, 0)
    alert = json.loads(listener.received[-1].body)
    assert (alert["kind"], alert["actor"], alert["details"]["explanation"]) == ("override", "security-officer", "reviewed: it lists a folder")


def test_a_dead_listener_neither_holds_up_nor_fails_the_execution(caplog: pytest.LogCaptureFixture) -> None:
    app = an_app(RiskLevel.LOW, MEMORY_KILLED)
    follower = a_follower(app, a_policy(dead_url(), attempts=3, backoff_s=3600))  # the second try would be an hour on
    report = app.run(b"print(1)\n")
    assert follower.catch_up() == 1
    assert report.status == "terminated" and report.termination_reason == "memory"
    wait_until(lambda: follower.sender.attempted == 1)  # refused; the next try is an hour away
    assert (follower.sender.delivered, follower.sender.given_up) == (0, 0)  # still trying, and the run is over
    with caplog.at_level(logging.ERROR, logger="mai_safety.alerts"):
        follower.close(wait_s=0)  # cuts the back-off short: the alert is given up and logged
        follower.sender._thread.join(30)
    assert follower.sender.given_up == 1
    assert "given up after 1 attempt(s)" in caplog.text
    assert app.report(report.execution_id).status == "terminated"  # recorded all the same


def test_an_alert_is_given_up_after_the_policy_s_attempts_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    app = an_app(RiskLevel.BLOCKED)
    with webhook_listener(500, 500, 500, 500) as listener, caplog.at_level(logging.ERROR, logger="mai_safety.alerts"):
        follower = a_follower(app, a_policy(listener.url, attempts=3))
        app.run(b"import os\n")
        follower.catch_up()
        follower.close(wait_s=30)
    assert [received.status for received in listener.received] == [500, 500, 500]
    assert follower.sender.given_up == 1 and "given up after 3 attempt(s): HTTP 500" in caplog.text


@pytest.mark.parametrize(
    ("level", "outcome"),
    [(RiskLevel.LOW, None), (RiskLevel.MEDIUM, None), (RiskLevel.LOW, TIMED_OUT)],
    ids=["low", "medium", "a-timeout-the-caller-chose"],
)
def test_no_alert_for_code_that_is_not_blocked_and_broke_no_limit(level: RiskLevel, outcome: RunOutcome | None) -> None:
    app = an_app(level, outcome)
    with webhook_listener() as listener:
        follower = a_follower(app, a_policy(listener.url))
        report = app.run(b"print(1)\n")
        assert follower.catch_up() == 0
        follower.close()
    assert report.status in ("completed", "terminated")
    assert listener.received == []


def test_an_alert_is_sent_only_for_what_is_recorded_after_the_follower_starts() -> None:
    app = an_app(RiskLevel.BLOCKED)
    app.run(b"import os\n")  # before: not this process's business
    with webhook_listener() as listener:
        follower = a_follower(app, a_policy(listener.url))
        assert follower.catch_up() == 0
        app.run(b"import sys\n")
        assert follower.catch_up() == 1
        assert follower.catch_up() == 0  # once, not again
        follower.close()
    assert len(listener.received) == 1


# --- policies/alerts.yaml --------------------------------------------------------------------


def write_policy(tmp_path: Path, webhook: str) -> Path:
    (tmp_path / "alerts.yaml").write_text(f"version: 1\nwebhook:\n{webhook}", encoding="utf-8")
    return tmp_path


def test_the_shipped_policy_and_a_missing_file_leave_alerts_off(tmp_path: Path) -> None:
    assert load_alerts_policy(PROJECT_ROOT / "policies") is None
    assert load_alerts_policy(tmp_path) is None


def test_the_secret_is_read_from_the_variable_the_policy_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOK_SECRET", SECRET.decode())
    policy = load_alerts_policy(write_policy(tmp_path, "  url: https://alerts.example.org/x\n  secret_env: HOOK_SECRET\n"))
    assert policy is not None and policy.webhook.secret == SECRET and "verify_failed" in policy.events


def test_the_secret_is_read_from_the_file_the_policy_names_in_the_secrets_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secrets = tmp_path / "secrets"
    secrets.mkdir()
    (secrets / "hook").write_bytes(SECRET + b"\n")
    monkeypatch.setenv("MAI_SAFETY_SECRETS_DIR", str(secrets))
    policy = load_alerts_policy(write_policy(tmp_path, "  url: https://alerts.example.org/x\n  secret_file: hook\n"))
    assert policy is not None and policy.webhook.secret == SECRET


@pytest.mark.parametrize(
    ("webhook", "message"),
    [
        ("  url: https://a.example/x\n", "key webhook: name the shared secret with exactly one of secret_file or secret_env"),
        ("  url: https://a.example/x\n  secret_env: A\n  secret_file: x\n", "exactly one of secret_file or secret_env"),
        ("  url: https://a.example/x\n  secret: hunter2hunter2hunter2\n", "key webhook.secret: unknown key"),
        ("  url: ftp://a.example/x\n  secret_env: A\n", "key webhook.url:"),
        ("  url: https://a.example/x\n  secret_env: MAI_SAFETY_TEST_UNSET\n", "key webhook.secret_env: the environment variable MAI_SAFETY_TEST_UNSET must hold a secret of at least 16 bytes"),
        ("  url: https://a.example/x\n  secret_file: /etc/shadow\n", "key webhook.secret_file: name a file of the secrets folder"),
        ("  url: https://a.example/x\n  secret_file: no-such-secret\n", "key webhook.secret_file: no usable secret named no-such-secret"),
        ("  url: http://169.254.169.254/latest/meta-data\n  secret_env: A\n", "key webhook.url: 169.254.169.254 is a cloud metadata service"),
        ("  url: http://[fe80::1]/x\n  secret_env: A\n", "key webhook.url: fe80::1 is link-local"),
        ("  url: http://metadata.google.internal/x\n  secret_env: A\n", "key webhook.url: metadata.google.internal is a cloud metadata service"),
        ("  url: https://a.example/x\n  secret_env: A\n  attempts: 0\n", "key webhook.attempts:"),
    ],
    ids=["no-secret", "two-secrets", "secret-inline", "not-http", "empty-variable", "a-path", "missing-file", "metadata", "link-local", "metadata-name", "no-attempts"],
)
def test_a_bad_alerts_policy_is_refused_naming_the_file_and_the_key(tmp_path: Path, webhook: str, message: str) -> None:
    with pytest.raises(ConfigurationError) as raised:
        load_alerts_policy(write_policy(tmp_path, webhook))
    assert str(tmp_path / "alerts.yaml") in raised.value.message and message in raised.value.message


def test_a_full_queue_drops_the_alert_without_waiting(caplog: pytest.LogCaptureFixture) -> None:
    policy = a_policy(dead_url(), attempts=2, backoff_s=3600)
    sender = WebhookSender(WebhookPolicy(**{**policy.webhook.__dict__, "queue": 1}))
    with caplog.at_level(logging.WARNING, logger="mai_safety.alerts"):
        results = [sender.offer({"id": str(number)}) for number in range(5)]  # one in flight, one queued, the rest dropped
        sender.close(wait_s=0)
        sender._thread.join(30)
    assert results[-1] is False and sender.dropped >= 3
    assert "dropped" in caplog.text
