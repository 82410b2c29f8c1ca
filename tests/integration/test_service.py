"""`mai-safety serve` as a caller meets it: a real uvicorn on a loopback port, a real HTTP client,
real Docker, a SQLite ledger of the test's own. Written as the attacks the service must stop: a
caller naming itself the approver, a submitter answering its own gate, a revoked or forged token,
another submitter's execution, a retried request recording twice."""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import docker
import httpx
import pytest

from mai_safety.infrastructure.bootstrap import bootstrap

from .cli_helpers import policies_with, run_cli
from .conftest import containers_of_this_run, settings_for
from .service_helpers import Server, grant_tokens, running_server

PRINCIPALS = {
    "mai": ["submitter"],
    "other": ["submitter"],
    "alice": ["approver"],
    "sec": ["security-officer"],
    "audit": ["auditor"],
    "admin": ["admin"],
    "both": ["submitter", "approver", "security-officer"],
}
HELLO = "print('hello from the sandbox')\n"
HIGH = 'import subprocess\ntry:\n    subprocess.run(["sudo", "true"])\nexcept OSError:\n    pass\nprint("confirmed and ran")\n'
BLOCKED = 'import base64\nexec(base64.b64decode("cHJpbnQoMSk="))\n'
MAX_CODE_BYTES = 64 * 1024
PROBLEM = "application/problem+json"


@dataclass
class World:
    server: Server
    tokens: dict[str, str]
    database_url: str
    policies: Path
    high: str  # mai's HIGH execution, awaiting a confirmation
    blocked: str  # mai's BLOCKED execution, awaiting an override

    def call(self, who: str | None, method: str, path: str, body: Any = None, **headers: str) -> httpx.Response:
        with self.server.client(self.tokens.get(who or "", None), **headers) as client:
            return client.request(method, path.format(high=self.high, blocked=self.blocked), json=body)


def submit(world: World, who: str, code: str, **fields: Any) -> httpx.Response:
    return world.call(who, "POST", "/v1/executions", {"code": code, **fields})


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """One service for the module. Its gate policy lets anyone ("*") confirm and override, and its
    environment says MAI_SAFETY_ACTOR=security-officer: in service mode neither may matter."""
    tmp = tmp_path_factory.mktemp("service")
    policies = policies_with(tmp, gate={"confirm": ["*"], "override": ["*"]})
    database_url = f"sqlite:///{tmp / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, PRINCIPALS)
    env = {"MAI_SAFETY_ACTOR": "security-officer", "MAI_SAFETY_MAX_CODE_BYTES": str(MAX_CODE_BYTES)}
    with running_server(tmp, database_url, policies, env, ["--max-wait", "60"]) as server:
        world = World(server, tokens, database_url, policies, high="", blocked="")
        world.high = submit(world, "mai", HIGH).json()["execution_id"]
        world.blocked = submit(world, "mai", BLOCKED).json()["execution_id"]
        yield world


def events_of(world: World, execution_id: str) -> list[dict[str, Any]]:
    response = world.call("audit", "GET", f"/v1/executions/{execution_id}/events")
    assert response.status_code == 200, response.text
    return response.json()


def assert_problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM
    body = response.json()
    assert body["status"] == status and body["type"].startswith("urn:mai-safety:problem:") and body["detail"]
    assert "Traceback" not in response.text
    return body


# --- the service answers -------------------------------------------------------------------


def test_health_needs_no_token_and_the_openapi_document_lists_every_route(world: World) -> None:
    assert world.call(None, "GET", "/v1/health").json() == {"status": "ok"}
    paths = world.call(None, "GET", "/openapi.json").json()["paths"]
    for path in (
        "/v1/assessments", "/v1/executions", "/v1/executions/{execution_id}", "/v1/executions/{execution_id}/events",
        "/v1/executions/{execution_id}/confirm", "/v1/executions/{execution_id}/override",
        "/v1/executions/{execution_id}/deny", "/v1/executions/{execution_id}/cancel",
        "/v1/status", "/v1/audit/verify", "/v1/audit/export", "/v1/executions/{execution_id}/stream",
    ):
        assert path in paths


def test_status_says_whether_docker_the_ledger_and_gvisor_answer(world: World) -> None:
    status = world.call("mai", "GET", "/v1/status").json()
    assert status["ok"] and status["docker"]["ok"] and status["ledger"]["ok"]
    assert "available" in status["runtimes"]["runsc"]


def test_hello_world_runs_as_the_submitter_with_the_callers_labels_beside_it(world: World, docker_client: docker.DockerClient) -> None:
    response = submit(world, "mai", HELLO, task_id="task-7", session_id="s-1", on_behalf_of="bob")
    assert response.status_code == 200, response.text
    report = response.json()
    assert (report["status"], report["exit_code"], report["stdout"]) == ("completed", 0, "hello from the sandbox\n")
    assert report["submitted_by"] == "mai"
    assert report["caller"] == {"task_id": "task-7", "session_id": "s-1", "on_behalf_of": "bob"}
    events = events_of(world, report["execution_id"])
    assert [event["event"] for event in events if event["event"] != "ResourceSampled"] == ["Assessed", "Started", "Completed"]
    assert events[0]["actor"] == events[1]["actor"] == "mai"  # not MAI_SAFETY_ACTOR's security-officer
    positions = [event["chain"]["position"] for event in events]
    assert positions == sorted(positions) and all(len(event["chain"]["ledger_hash"]) == 64 for event in events)


def test_an_approver_confirms_anothers_high_execution_and_is_the_actor_of_the_confirmation_and_the_start(
    world: World, docker_client: docker.DockerClient
) -> None:
    execution_id = submit(world, "mai", HIGH).json()["execution_id"]
    response = world.call("alice", "POST", f"/v1/executions/{execution_id}/confirm", {"explanation": "reviewed", "on_behalf_of": "carol"})
    assert response.status_code == 200, response.text
    assert (response.json()["status"], response.json()["stdout"]) == ("completed", "confirmed and ran\n")
    events = {event["event"]: event for event in events_of(world, execution_id)}
    assert events["Assessed"]["actor"] == "mai"
    assert events["Overridden"]["actor"] == events["Started"]["actor"] == "alice"
    assert events["Overridden"]["on_behalf_of"] == "carol"


# --- separation of duties ------------------------------------------------------------------


def test_a_submitter_cannot_confirm_or_override_its_own_execution_whatever_it_claims(world: World) -> None:
    """`both` holds every answering role, and the server runs with MAI_SAFETY_ACTOR=security-officer."""
    high = submit(world, "both", HIGH).json()["execution_id"]
    blocked = submit(world, "both", BLOCKED).json()["execution_id"]
    refused = world.call("both", "POST", f"/v1/executions/{high}/confirm", {}, **{"X-Actor": "security-officer"})
    assert "separation of duties" in assert_problem(refused, 403)["detail"]
    refused = world.call("both", "POST", f"/v1/executions/{blocked}/override", {"explanation": "trust me"})
    assert "separation of duties" in assert_problem(refused, 403)["detail"]
    # The body cannot name an actor either.
    sneaked = world.call("both", "POST", f"/v1/executions/{high}/confirm", {"actor": "alice"})
    assert "actor" in assert_problem(sneaked, 422)["detail"]
    sneaked = submit(world, "mai", HELLO, actor="security-officer")
    assert_problem(sneaked, 422)
    for execution_id in (high, blocked):
        assert [event["event"] for event in events_of(world, execution_id)] == ["Assessed", "OverrideRequested"]


def test_a_caller_with_its_own_environment_claiming_to_be_the_officer_changes_nothing(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The local CLI's MAI_SAFETY_ACTOR is the caller's to set; nothing of it reaches the service."""
    monkeypatch.setenv("MAI_SAFETY_ACTOR", "sec")
    refused = world.call("mai", "POST", "/v1/executions/{blocked}/override", {"explanation": "I am the security officer"})
    assert_problem(refused, 403)
    assert [event["event"] for event in events_of(world, world.blocked)] == ["Assessed", "OverrideRequested"]


# --- the role-by-action matrix -------------------------------------------------------------

ACTIONS: dict[str, tuple[str, str, Any]] = {
    "assess": ("POST", "/v1/assessments", {"code": HELLO}),
    "submit": ("POST", "/v1/executions", {"code": HIGH}),
    "read": ("GET", "/v1/executions/{high}", None),
    "events": ("GET", "/v1/executions/{high}/events", None),
    "confirm": ("POST", "/v1/executions/{high}/confirm", {}),
    "override": ("POST", "/v1/executions/{blocked}/override", {"explanation": "reviewed"}),
    "deny": ("POST", "/v1/executions/{high}/deny", {"reason": "no"}),
    "cancel": ("POST", "/v1/executions/{high}/cancel", None),
    "verify": ("GET", "/v1/audit/verify", None),
    "status": ("GET", "/v1/status", None),
    "tokens": ("GET", "/v1/tokens", None),
}
#: Who may do what to mai's executions; every refusal. (Allowed answers that run code or end the
#: execution are tested on executions of their own above and below.)
MATRIX = [
    ("assess", {"mai": 200, "alice": 403, "sec": 403, "audit": 403, "admin": 403}),
    ("submit", {"other": 200, "alice": 403, "sec": 403, "audit": 403, "admin": 403}),
    ("read", {"mai": 200, "other": 404, "alice": 200, "sec": 200, "audit": 200, "admin": 404}),
    ("events", {"mai": 200, "other": 404, "alice": 200, "sec": 200, "audit": 200, "admin": 404}),
    ("confirm", {"mai": 403, "other": 404, "sec": 403, "audit": 403, "admin": 404}),
    ("override", {"mai": 403, "other": 404, "alice": 403, "audit": 403, "admin": 404}),
    ("deny", {"mai": 403, "other": 404, "sec": 403, "audit": 403, "admin": 404}),
    ("cancel", {"other": 404, "audit": 403, "admin": 404}),
    ("verify", {"audit": 200, "mai": 403, "alice": 403, "sec": 403, "admin": 403}),
    ("status", {name: 200 for name in PRINCIPALS}),
    ("tokens", {"admin": 200, "audit": 200, "mai": 403, "alice": 403, "sec": 403}),
]


@pytest.mark.parametrize(
    ("action", "who", "expected"),
    [(action, who, status) for action, table in MATRIX for who, status in table.items()],
)
def test_role_by_action(world: World, action: str, who: str, expected: int) -> None:
    method, path, body = ACTIONS[action]
    response = world.call(who, method, path, body)
    if expected >= 400:
        assert_problem(response, expected)
    else:
        assert response.status_code == expected, response.text
    if action in ("confirm", "override", "deny", "cancel"):
        assert world.call("audit", "GET", "/v1/executions/{high}").json()["status"] == "awaiting_override"
        assert world.call("audit", "GET", "/v1/executions/{blocked}").json()["status"] == "awaiting_override"


def test_a_security_officer_overrides_blocked_code_only_with_an_explanation_and_denies_the_rest(world: World) -> None:
    blocked = submit(world, "mai", BLOCKED).json()["execution_id"]
    for body in ({}, {"explanation": "   "}):
        assert "explanation" in assert_problem(world.call("sec", "POST", f"/v1/executions/{blocked}/override", body), 422)["detail"]
    assert_problem(world.call("alice", "POST", f"/v1/executions/{blocked}/deny", {}), 403)  # a confirmation is the approver's
    denied = world.call("sec", "POST", f"/v1/executions/{blocked}/deny", {"reason": "no"}).json()
    assert (denied["status"], denied["termination_reason"]) == ("rejected", "denied")


def test_a_submitter_cancels_its_own_waiting_execution(world: World) -> None:
    execution_id = submit(world, "other", HIGH).json()["execution_id"]
    cancelled = world.call("other", "POST", f"/v1/executions/{execution_id}/cancel").json()
    assert (cancelled["status"], cancelled["termination_reason"]) == ("rejected", "cancelled")
    assert events_of(world, execution_id)[-1]["actor"] == "other"


# --- tokens ----------------------------------------------------------------------------------


def test_no_token_a_forged_one_and_a_revoked_one_are_refused_at_once(world: World) -> None:
    assert_problem(world.call(None, "GET", "/v1/executions/{high}"), 401)
    assert world.call(None, "GET", "/v1/status").headers["www-authenticate"].startswith("Bearer")
    forged = world.tokens["mai"][:-6] + "AAAAAA"
    with world.server.client(forged) as client:
        assert_problem(client.get("/v1/status"), 401)
    with world.server.client("not-a-token") as client:
        assert_problem(client.get("/v1/status"), 401)
    token = grant_tokens(world.database_url, world.policies, {"temp": ["auditor"]})["temp"]
    with world.server.client(token) as client:
        assert client.get("/v1/audit/verify").status_code == 200
        app = bootstrap(settings_for(world.database_url, world.policies), warm_semgrep=False)
        try:
            app.revoke_tokens("temp", "test")
        finally:
            app.close()
        assert_problem(client.get("/v1/audit/verify"), 401)  # the very next request


def test_tokens_cli_shows_a_token_once_keeps_only_its_hash_and_replays_grants_and_revocations(tmp_path: Path) -> None:
    env = {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{tmp_path / 'ledger.sqlite'}"}
    created = run_cli(["tokens", "create", "sec", "--role", "security-officer", "--role", "auditor"], env)
    assert created.returncode == 0, created.stderr
    token = created.stdout.splitlines()[0]
    assert token.startswith("mst_")
    before_revocation = time.time()
    time.sleep(0.05)
    revoked = run_cli(["tokens", "revoke", "sec", "--reason", "left", "--json"], env)
    assert revoked.returncode == 0, revoked.stderr
    (now,) = json.loads(run_cli(["tokens", "list", "--json"], env).stdout)
    assert (now["principal"], now["roles"], now["active"], now["revoked_because"]) == ("sec", ["security-officer", "auditor"], False, "left")
    moment = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(before_revocation)) + f".{int(before_revocation % 1 * 1e6):06d}Z"
    (then,) = json.loads(run_cli(["tokens", "list", "--json", "--as-of", moment], env).stdout)
    assert then["active"] is True
    assert token.encode() not in (tmp_path / "ledger.sqlite").read_bytes()
    assert token.split("_", 2)[2].encode() not in (tmp_path / "ledger.sqlite").read_bytes()
    verified = run_cli(["audit", "verify", "--json"], env)
    assert verified.returncode == 0 and json.loads(verified.stdout)["intact"], verified.stdout
    unknown = run_cli(["tokens", "create", "x", "--role", "root"], env)
    assert unknown.returncode == 2


# --- idempotency -----------------------------------------------------------------------------


def test_the_same_idempotency_key_gives_one_execution_and_records_nothing_new(world: World) -> None:
    first = world.call("mai", "POST", "/v1/executions", {"code": HIGH}, **{"Idempotency-Key": "retry-1"}).json()
    again = world.call("mai", "POST", "/v1/executions", {"code": HIGH}, **{"Idempotency-Key": "retry-1"}).json()
    assert first == again
    assert len(events_of(world, first["execution_id"])) == 2
    other_code = world.call("mai", "POST", "/v1/executions", {"code": HIGH + "# other\n"}, **{"Idempotency-Key": "retry-1"})
    assert_problem(other_code, 409)
    # Keys are per principal: another's same key is another execution.
    theirs = world.call("other", "POST", "/v1/executions", {"code": HIGH}, **{"Idempotency-Key": "retry-1"}).json()
    assert theirs["execution_id"] != first["execution_id"]


# --- bad requests ----------------------------------------------------------------------------


def test_bad_requests_get_a_problem_body_and_record_nothing(world: World) -> None:
    before = world.call("audit", "GET", "/v1/audit/verify").json()["head_position"]
    assert_problem(world.call("mai", "GET", "/v1/executions/00000000-0000-0000-0000-000000000000"), 404)
    assert_problem(world.call("mai", "GET", "/v1/executions/not-a-uuid"), 404)
    # A token's id is not an execution's.
    token_id = world.tokens["mai"].split("_")[1]
    assert_problem(world.call("audit", "GET", f"/v1/executions/{token_id[:8]}-{token_id[8:12]}-{token_id[12:16]}-{token_id[16:20]}-{token_id[20:]}"), 404)
    assert_problem(world.call("mai", "GET", "/v1/no-such-route"), 404)
    missing = assert_problem(world.call("mai", "POST", "/v1/executions", {"provenance": "mai"}), 422)
    assert missing["errors"][0]["field"] == "code"
    assert assert_problem(submit(world, "mai", HELLO, provenance="martian"), 422)["errors"][0]["field"] == "provenance"
    assert_problem(submit(world, "mai", HELLO, limits={"timeout_s": -1}), 422)
    assert_problem(submit(world, "mai", HELLO, limits={"timeout_s": 100000}), 422)  # above the policy
    assert_problem(submit(world, "mai", "   \n"), 422)  # empty code
    with world.server.client(world.tokens["mai"]) as client:  # JSON can escape a lone surrogate, which is not UTF-8
        for path in ("/v1/executions", "/v1/assessments"):
            lone = client.post(path, content=rb'{"code": "x = \"\ud800\"\n"}', headers={"content-type": "application/json"})
            assert "UTF-8" in assert_problem(lone, 422)["detail"]
    assert "idempotency" in assert_problem(world.call("mai", "POST", "/v1/executions", {"code": HIGH}, **{"Idempotency-Key": "x" * 201}), 422)["detail"].lower()
    with world.server.client(world.tokens["mai"]) as client:
        not_json = client.post("/v1/executions", content=b"{not json", headers={"content-type": "application/json"})
    assert_problem(not_json, 422)
    assert_problem(submit(world, "mai", "x = 1\n" * (MAX_CODE_BYTES // 6 + 10)), 413)  # over the code limit
    assert_problem(submit(world, "mai", "#" * (3 * MAX_CODE_BYTES)), 413)  # over the body limit
    with world.server.client(world.tokens["mai"]) as client:  # no length declared: cut off as it arrives
        chunks = iter([b'{"code": "'] + [b"#" * 65536] * 4 + [b'"}'])
        assert_problem(client.post("/v1/executions", content=chunks, headers={"content-type": "application/json"}), 413)
    assert world.call("audit", "GET", "/v1/audit/verify").json()["head_position"] == before


def test_an_answer_the_execution_does_not_allow_is_a_409(world: World) -> None:
    execution_id = submit(world, "mai", HIGH).json()["execution_id"]
    assert_problem(world.call("sec", "POST", f"/v1/executions/{execution_id}/override", {"explanation": "x"}), 409)  # HIGH needs a confirmation
    assert world.call("alice", "POST", f"/v1/executions/{execution_id}/deny", {"reason": "no"}).json()["status"] == "rejected"
    assert_problem(world.call("alice", "POST", f"/v1/executions/{execution_id}/confirm", {}), 409)
    assert_problem(world.call("mai", "POST", f"/v1/executions/{execution_id}/cancel"), 409)


def test_the_ledger_still_verifies_with_the_services_tokens_and_executions_on_it(world: World) -> None:
    report = world.call("audit", "GET", "/v1/audit/verify").json()
    assert report["intact"], report["problems"]


# --- the host and its services ---------------------------------------------------------------


def test_no_room_on_the_host_is_a_429_with_retry_after_and_overdue_waits_are_swept(tmp_path: Path, docker_client: docker.DockerClient) -> None:
    policies = policies_with(tmp_path, limits={"host": {"memory_share": 0.0001, "queue_wait_s": 0}}, gate={"answer_within_s": 1})
    database_url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, {"mai": ["submitter"]})
    with running_server(tmp_path, database_url, policies, args=["--sweep-every", "0.3"]) as server, server.client(tokens["mai"]) as client:
        busy = client.post("/v1/executions", json={"code": HELLO}, headers={"Idempotency-Key": "k-1"})
        assert_problem(busy, 429)
        assert int(busy.headers["retry-after"]) > 0
        # The retry the 429 invites, with the same key, tries again: it is not answered with the
        # attempt that ended unrun (host_busy).
        assert_problem(client.post("/v1/executions", json={"code": HELLO}, headers={"Idempotency-Key": "k-1"}), 429)
        waiting = client.post("/v1/executions", json={"code": HIGH}).json()
        deadline = time.monotonic() + 10
        while client.get(f"/v1/executions/{waiting['execution_id']}").json()["status"] == "awaiting_override":
            assert time.monotonic() < deadline, "the sweeper did not end the overdue wait"
            time.sleep(0.2)
        ended = client.get(f"/v1/executions/{waiting['execution_id']}").json()
        assert (ended["status"], ended["termination_reason"]) == ("rejected", "no_answer")
        assert client.get(f"/v1/executions/{waiting['execution_id']}/events").json()[-1]["actor"] == "mai-safety-service"


def test_docker_not_answering_is_a_503_and_nothing_is_recorded(tmp_path: Path) -> None:
    policies = policies_with(tmp_path)
    database_url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, {"mai": ["submitter"]})
    env = {"DOCKER_HOST": f"unix://{tmp_path}/no-docker.sock"}
    with running_server(tmp_path, database_url, policies, env) as server, server.client(tokens["mai"]) as client:
        assert_problem(client.post("/v1/executions", json={"code": HELLO}), 503)
        status = client.get("/v1/status").json()
        assert status["ok"] is False and status["docker"]["ok"] is False and status["ledger"]["ok"] is True
        assert status["ledger"]["head_position"] == 1  # the token's grant alone


def test_sigterm_lets_a_run_finish_within_the_grace_then_ends_the_rest_recorded(tmp_path: Path, docker_client: docker.DockerClient) -> None:
    policies = policies_with(tmp_path)
    database_url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, {"mai": ["submitter"], "audit": ["auditor"]})
    with running_server(tmp_path, database_url, policies, args=["--grace", "3"]) as server:
        with server.client(tokens["mai"]) as client:
            long = client.post("/v1/executions", json={"code": "import time\ntime.sleep(30)\n", "wait_s": 0.2})
            short = client.post("/v1/executions", json={"code": "import time\ntime.sleep(1.5)\nprint('done')\n", "wait_s": 0.2})
            assert long.status_code == short.status_code == 202
            assert long.headers["location"] == f"/v1/executions/{long.json()['execution_id']}"
            execution_id, finishing = long.json()["execution_id"], short.json()["execution_id"]
            while {client.get(f"/v1/executions/{one}").json()["status"] for one in (execution_id, finishing)} != {"running"}:
                time.sleep(0.1)
        server.process.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        with server.client(tokens["mai"]) as client:  # it no longer accepts
            try:
                late = client.post("/v1/executions", json={"code": HELLO}).status_code
            except httpx.TransportError:
                late = "refused"
        assert late in ("refused", 503)
        started = time.monotonic()
        assert server.stop() == 0, server.output()
        assert time.monotonic() - started < 20
    assert not containers_of_this_run(docker_client)
    app = bootstrap(settings_for(database_url, policies), warm_semgrep=False)
    try:
        assert (app.report(finishing).status, app.report(finishing).stdout) == ("completed", "done\n")
        report = app.report(execution_id)
        assert (report.status, report.termination_reason) == ("terminated", "service_stopped")
        assert app.history(execution_id)[-1]["actor"] == "mai-safety-service"
        assert app.verify().intact
    finally:
        app.close()


def test_two_concurrent_requests_with_one_idempotency_key_record_one_execution(world: World) -> None:
    from concurrent.futures import ThreadPoolExecutor

    def post(_: int) -> dict[str, Any]:
        response = world.call("other", "POST", "/v1/executions", {"code": HIGH}, **{"Idempotency-Key": "race-1"})
        assert response.status_code == 200, response.text
        return response.json()

    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(post, range(4)))
    assert len({answer["execution_id"] for answer in answers}) == 1
    assert [event["event"] for event in events_of(world, answers[0]["execution_id"])] == ["Assessed", "OverrideRequested"]


def test_who_could_override_then_replays_over_http_and_no_token_is_ever_shown(world: World) -> None:
    listed = world.call("admin", "GET", "/v1/tokens").json()
    assert {"sec", "both"} <= {token["principal"] for token in listed if "security-officer" in token["roles"] and token["active"]}
    assert not any(secret in json.dumps(listed) for secret in world.tokens.values())
    before_any = world.call("audit", "GET", "/v1/tokens?as_of=2000-01-01T00:00:00Z").json()
    assert before_any == []
    assert_problem(world.call("audit", "GET", "/v1/tokens?as_of=yesterday"), 422)
