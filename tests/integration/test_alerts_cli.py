"""The real command line and a real `mai-safety serve` with webhook alerts set in
policies/alerts.yaml: a failed `audit verify` tells the listener and an intact one does not, a dead
webhook adds no traceback, a bad alerts.yaml is one line, and the service alerts what it records."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from mai_safety.infrastructure.alerts.signing import is_authentic

from .cli_helpers import policies_with, run_cli
from .ledger_helpers import Attacker, make_app, record_execution, record_waiting, service_environ
from .service_helpers import grant_tokens, running_server
from .webhook_listener import dead_url, webhook_listener

SECRET = "a-shared-secret-of-enough-bytes"


def a_ledger(tmp_path: Path, url: str) -> dict[str, str]:
    policies = policies_with(tmp_path, alerts={"webhook": {"url": url, "secret_env": "HOOK_SECRET", "attempts": 2, "backoff_s": 0}})
    database = f"sqlite:///{tmp_path / 'data' / 'ledger.sqlite'}"
    app = make_app(database, tmp_path / "data", policies=policies)
    try:
        record_execution(app, "print(1)\n")
        record_waiting(app)
    finally:
        app.close()
    return {"MAI_SAFETY_DATABASE_URL": database, **service_environ(tmp_path / "data", policies), "HOOK_SECRET": SECRET, "MAI_SAFETY_ACTOR": "auditor", "MAI_SAFETY_WEBHOOK_LOOPBACK": "allow"}


def test_a_failed_audit_verify_is_alerted_and_an_intact_one_is_not(tmp_path: Path) -> None:
    with webhook_listener() as listener:
        environ = a_ledger(tmp_path, listener.url)
        assert run_cli(["audit", "verify"], environ).returncode == 0
        assert listener.received == []
        attacker = Attacker("sqlite", sqlite_path=Path(environ["MAI_SAFETY_DATABASE_URL"].removeprefix("sqlite:///")))
        row = attacker.events()[4]
        attacker.set_state(row["position"], row["state"].replace(b"HIGH", b"LOW!"))
        result = run_cli(["audit", "verify"], environ)
    assert result.returncode == 1 and result.stdout.startswith("ledger TAMPERED")
    (received,) = listener.received
    alert = json.loads(received.body)
    assert (alert["kind"], alert["actor"]) == ("verify_failed", "auditor")
    assert "event hash mismatch" in alert["details"]["problems"][0]
    assert is_authentic(SECRET.encode(), received.headers, received.body, now=int(received.headers["X-Mai-Safety-Timestamp"]))


def test_a_dead_webhook_does_not_fail_a_failed_verify_or_add_a_traceback(tmp_path: Path) -> None:
    environ = a_ledger(tmp_path, dead_url())
    attacker = Attacker("sqlite", sqlite_path=Path(environ["MAI_SAFETY_DATABASE_URL"].removeprefix("sqlite:///")))
    row = attacker.events()[4]
    attacker.set_state(row["position"], row["state"].replace(b"HIGH", b"LOW!"))
    result = run_cli(["audit", "verify"], environ)
    assert result.returncode == 1 and "Traceback" not in result.stderr


def test_a_bad_alerts_policy_stops_the_command_with_one_line_and_exit_6(tmp_path: Path) -> None:
    environ = a_ledger(tmp_path, dead_url())
    (Path(environ["MAI_SAFETY_POLICIES"]) / "alerts.yaml").write_text("version: 1\nwebhook:\n  url: https://a.example/x\n", encoding="utf-8")
    result = run_cli(["history", "00000000-0000-0000-0000-000000000000"], environ)
    assert result.returncode == 6, result.stderr
    assert result.stderr.count("\n") == 1 and "alerts.yaml: key webhook: name the shared secret" in result.stderr


def test_a_running_service_alerts_a_blocked_submission_it_recorded(tmp_path: Path) -> None:
    """A real `mai-safety serve` follows its ledger; BLOCKED code waits, so no container starts."""
    blocked_code = 'import base64\nexec(base64.b64decode("cHJpbnQoMSk="))\n'
    with webhook_listener() as listener:
        policies = policies_with(tmp_path, alerts={"webhook": {"url": listener.url, "secret_env": "HOOK_SECRET"}, "poll_s": 0.1})
        database = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
        tokens = grant_tokens(database, policies, {"mai": ["submitter"]})
        with running_server(tmp_path, database, policies, {"HOOK_SECRET": SECRET, "MAI_SAFETY_WEBHOOK_LOOPBACK": "allow"}) as server:
            response = httpx.post(f"{server.url}/v1/executions", json={"code": blocked_code}, headers={"Authorization": f"Bearer {tokens['mai']}"}, timeout=90)
            assert response.status_code in (200, 202), response.text
            assert listener.delivered.wait(60), server.output()
    (received,) = listener.received
    alert = json.loads(received.body)
    assert (alert["kind"], alert["execution_id"], alert["details"]["submitter"]) == ("blocked", response.json()["execution_id"], "mai")
    assert is_authentic(SECRET.encode(), received.headers, received.body, now=int(received.headers["X-Mai-Safety-Timestamp"]))
