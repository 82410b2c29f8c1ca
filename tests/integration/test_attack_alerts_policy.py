"""Attacks on the alerts policy (issue 23, item 5), each over a real `mai-safety serve`: an
alerts.yaml applied over HTTP is the one the service alerts by; validating one never reads a file
outside the secrets folder nor says whether one exists; a webhook never points at a link-local
address or a metadata service, nor (unless allowed) at this host's loopback, also when only its
name's look-up says so (docs/decisions/0032)."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from .cli_helpers import policies_with
from .ledger_helpers import service_environ
from .service_helpers import Server, grant_tokens, running_server
from .webhook_listener import Listener, webhook_listener

SECRET = b"a-shared-secret-of-enough-bytes"
BLOCKED = 'import base64\nexec(base64.b64decode("cHJpbnQoMSk="))\n'


@dataclass
class World:
    tmp: Path
    server: Server
    policies: Path
    secrets: Path
    tokens: dict[str, str]
    started_with: Listener


def _files(policies: Path, alerts: dict) -> dict[str, str]:
    files = {path.relative_to(policies).as_posix(): path.read_text() for path in sorted(policies.glob("**/*.yaml"))}
    files["alerts.yaml"] = yaml.safe_dump({"version": 1, "poll_s": 0.1, **alerts})
    return files


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("alerts-policy")
    secrets = tmp / "secrets"
    secrets.mkdir()
    (secrets / "hook").write_bytes(SECRET + b"\n")
    with webhook_listener() as started_with:
        policies = policies_with(tmp, alerts={"webhook": {"url": started_with.url, "secret_file": "hook"}, "poll_s": 0.1})
        database = f"sqlite:///{tmp / 'ledger.sqlite'}"
        environ = {**service_environ(tmp / "data", policies), "MAI_SAFETY_SECRETS_DIR": str(secrets), "MAI_SAFETY_WEBHOOK_LOOPBACK": "allow"}
        tokens = grant_tokens(database, policies, {"ops": ["admin"], "mai": ["submitter"]})
        with running_server(tmp, database, policies, environ) as server:
            yield World(tmp, server, policies, secrets, tokens, started_with)


def _apply(world: World, alerts: dict) -> tuple[int, str]:
    with world.server.client(world.tokens["ops"]) as ops:
        answer = ops.post("/v1/policies", json={"files": _files(world.policies, alerts)})
    return answer.status_code, answer.json().get("detail", "") if answer.status_code != 200 else ""


def test_an_alerts_policy_applied_over_http_is_the_one_the_running_service_alerts_by(world: World) -> None:
    with webhook_listener() as applied:
        status, detail = _apply(world, {"webhook": {"url": applied.url, "secret_file": "hook"}})
        assert status == 200, detail
        with world.server.client(world.tokens["mai"]) as mai:
            submitted = mai.post("/v1/executions", json={"code": BLOCKED})
        assert submitted.status_code in (200, 202), submitted.text
        assert applied.delivered.wait(30), world.server.output()
        time.sleep(0.5)  # the old webhook would have been told by now too: it must not be
    assert [received.status for received in applied.received] == [200]
    assert world.started_with.received == [], "the webhook read at the start was told after another was applied"


@pytest.mark.parametrize("named", ["/etc/shadow", "signing-key", "/nonexistent/secret", "../config/mai-safety/signing-key.pem"])
def test_a_secret_file_outside_the_secrets_folder_is_refused_by_its_form_before_anything_is_read(world: World, named: str) -> None:
    status, detail = _apply(world, {"webhook": {"url": "https://alerts.example.org/x", "secret_file": named}})
    assert status == 422
    assert "secret_file" in detail and "root:" not in detail
    if "/" in named:
        assert "not a path" in detail


def test_every_reason_a_named_secret_cannot_be_used_gets_one_answer(world: World) -> None:
    """Missing, a link out of the folder (to the host's /etc/shadow), a folder, too short: the
    same words, so validation tells an admin nothing about files the service can read."""
    (world.secrets / "leak").symlink_to("/etc/shadow")
    (world.secrets / "subdir").mkdir()
    (world.secrets / "short").write_bytes(b"tiny\n")
    answers = set()
    for name in ("missing", "leak", "subdir", "short"):
        status, detail = _apply(world, {"webhook": {"url": "https://alerts.example.org/x", "secret_file": name}})
        assert status == 422, detail
        answers.add(detail.replace(name, "NAME"))
    assert len(answers) == 1, answers
    assert "shadow" not in answers.pop()


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://169.254.169.254/latest/meta-data/iam/security-credentials/", "metadata"),
        ("http://169.254.10.1/x", "link-local"),
        ("http://[fe80::1]/x", "link-local"),
        ("http://[::ffff:169.254.169.254]/x", "metadata"),
        ("http://metadata.google.internal/computeMetadata/v1/", "metadata"),
        ("http://100.100.100.200/latest/meta-data/", "metadata"),
    ],
)
def test_a_link_local_or_metadata_webhook_is_refused_when_applied(world: World, url: str, why: str) -> None:
    status, detail = _apply(world, {"webhook": {"url": url, "secret_file": "hook"}})
    assert status == 422 and "webhook.url" in detail and why in detail, detail


def test_a_webhook_whose_name_resolves_to_a_refused_address_is_not_sent_to(tmp_path: Path) -> None:
    """A name the policy cannot judge (this host's own name) is looked up at each send; this
    service is not allowed its loopback, so the listener there hears nothing."""
    host = socket.gethostname()
    try:
        resolved = {answer[4][0] for answer in socket.getaddrinfo(host, 80, type=socket.SOCK_STREAM)}
    except OSError:
        pytest.skip(f"this host's name {host} does not resolve")
    if not all(address.startswith("127.") or address == "::1" for address in resolved):
        pytest.skip(f"this host's name {host} resolves to {resolved}, not to loopback")
    secrets = tmp_path / "secrets"
    secrets.mkdir()
    (secrets / "hook").write_bytes(SECRET + b"\n")
    with webhook_listener() as listener:
        by_name = listener.url.replace("127.0.0.1", host)
        policies = policies_with(tmp_path, alerts={"webhook": {"url": by_name, "secret_file": "hook", "attempts": 1}, "poll_s": 0.1})
        database = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
        environ = {**service_environ(tmp_path / "data", policies), "MAI_SAFETY_SECRETS_DIR": str(secrets)}
        environ.pop("MAI_SAFETY_WEBHOOK_LOOPBACK", None)
        assert "MAI_SAFETY_WEBHOOK_LOOPBACK" not in os.environ
        tokens = grant_tokens(database, policies, {"mai": ["submitter"]})
        with running_server(tmp_path, database, policies, environ) as server:
            with server.client(tokens["mai"]) as mai:
                assert mai.post("/v1/executions", json={"code": BLOCKED}).status_code in (200, 202)
            deadline = time.monotonic() + 30
            while "alerts may not go there" not in server.output() and time.monotonic() < deadline:
                time.sleep(0.1)
            log = server.output()
        assert listener.received == [], "an alert went to a loopback address found by a look-up"
    assert f"{host} resolves to 127." in log and "loopback" in log, log
