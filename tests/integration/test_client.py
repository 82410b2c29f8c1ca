"""``mai_safety.client`` against a real ``mai-safety serve`` on a loopback port, with real Docker:
typed answers, every problem mapped to its exception, retries that never run code twice, and a
client that carries nothing of the server's side into its caller's process."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import docker
import pytest

from mai_safety.client import (
    AsyncClient,
    Client,
    Conflict,
    Execution,
    HostBusy,
    InvalidRequest,
    NotAuthenticated,
    NotFound,
    NotPermitted,
    PendingExecution,
    ProblemError,
    ServerError,
    ServiceUnavailable,
    Timeout,
    TooLarge,
    TransportError,
)

from .cli_helpers import policies_with
from .conftest import containers_of_this_run
from .relay import relay_to
from .service_helpers import Server, free_port, grant_tokens, running_server

HELLO = "print('hello from the sandbox')\n"
HIGH = 'import subprocess\ntry:\n    subprocess.run(["sudo", "true"])\nexcept OSError:\n    pass\nprint("confirmed and ran")\n'
BLOCKED = 'import base64\nexec(base64.b64decode("cHJpbnQoMSk="))\n'
MAX_CODE_BYTES = 64 * 1024
PRINCIPALS = {"mai": ["submitter"], "alice": ["approver"], "sec": ["security-officer"], "audit": ["auditor"]}


@dataclass
class World:
    server: Server
    tokens: dict[str, str]

    def client(self, who: str, **options: object) -> Client:
        return Client(self.server.url, token=self.tokens[who], **options)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("client")
    policies = policies_with(tmp)
    database_url = f"sqlite:///{tmp / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, PRINCIPALS)
    with running_server(tmp, database_url, policies, {"MAI_SAFETY_MAX_CODE_BYTES": str(MAX_CODE_BYTES)}) as server:
        yield World(server, tokens)


# --- typed answers -------------------------------------------------------------------------------


def test_run_returns_the_finished_execution_typed_with_the_callers_labels(world: World, docker_client: docker.DockerClient) -> None:
    with world.client("mai") as mai:
        assert mai.health().status == "ok"
        assert mai.status().ok
        assessment = mai.assess(HIGH)
        assert assessment.level == "HIGH" and assessment.findings and assessment.findings[0].rule_id
        execution = mai.run(HELLO, task_id="task-7", session_id="s-1", limits={"timeout_s": 10}, idempotency_key="typed-1")
        assert isinstance(execution, Execution)
        assert (execution.status, execution.exit_code, execution.stdout) == ("completed", 0, "hello from the sandbox\n")
        assert execution.caller == {"task_id": "task-7", "session_id": "s-1"}
        assert execution.limits and execution.limits["timeout_s"] <= 10
        assert mai.get(execution.execution_id) == execution
        events = mai.events(execution.execution_id)
        assert [event.event for event in events if event.event != "ResourceSampled"] == ["Assessed", "Started", "Completed"]
        assert {event.actor for event in events} == {"mai"}


def test_high_code_awaits_and_an_approver_with_another_token_confirms_it(world: World, docker_client: docker.DockerClient) -> None:
    with world.client("mai") as mai, world.client("alice") as alice:
        waiting = mai.run(HIGH)
        assert waiting.awaiting_override and waiting.override_kind == "confirmation" and waiting.level == "HIGH"
        ran = alice.confirm(waiting.execution_id, "reviewed")
        assert isinstance(ran, Execution) and (ran.status, ran.stdout) == ("completed", "confirmed and ran\n")


def test_the_async_client_has_the_same_methods_and_answers(world: World, docker_client: docker.DockerClient) -> None:
    async def scenario() -> tuple[Execution, Execution, str]:
        async with AsyncClient(world.server.url, token=world.tokens["mai"]) as mai:
            ran = await mai.run(HELLO)
            blocked = await mai.run(BLOCKED)
            try:
                await mai.verify()
            except NotPermitted as exc:
                refused = exc.detail
            return ran, blocked, refused

    ran, blocked, refused = asyncio.run(scenario())
    assert (ran.status, ran.stdout) == ("completed", "hello from the sandbox\n")
    assert blocked.awaiting_override and blocked.override_kind == "override" and blocked.level == "BLOCKED"
    assert refused
    sync_methods = {name for name in dir(Client) if not name.startswith("_")} - {"close"}
    async_methods = {name for name in dir(AsyncClient) if not name.startswith("_")} - {"aclose"}
    assert sync_methods == async_methods


def test_a_202_is_a_pending_execution_and_wait_follows_it_to_the_end(world: World, docker_client: docker.DockerClient) -> None:
    with world.client("mai") as mai:
        first = mai.submit("import time\ntime.sleep(2)\nprint('late')\n", wait_s=0.2)
        assert isinstance(first, PendingExecution)
        done = mai.wait(first.execution_id, poll_s=0.2, first=first)
        assert (done.status, done.stdout) == ("completed", "late\n")
    # Read while polling, "completed" is recorded a moment before the service removes the container.
    deadline = time.monotonic() + 10
    while containers_of_this_run(docker_client) and time.monotonic() < deadline:
        time.sleep(0.1)


# --- every problem, its exception ------------------------------------------------------------------


def test_each_problem_the_service_answers_is_its_own_exception(world: World) -> None:
    with Client(world.server.url, token="mst_not_a_real_token") as stranger:
        with pytest.raises(NotAuthenticated) as caught:
            stranger.status()
        assert caught.value.status == 401 and caught.value.type == "urn:mai-safety:problem:not-authenticated"
    with world.client("mai") as mai, world.client("alice") as alice:
        with pytest.raises(NotPermitted):
            mai.verify()  # the auditor's
        with pytest.raises(NotFound):
            mai.get("00000000-0000-0000-0000-000000000000")
        with pytest.raises(NotFound):  # an id is one path segment: it cannot walk to another route
            mai.get("../status")
        mai.submit(HIGH, idempotency_key="reused-1")
        with pytest.raises(Conflict) as conflict:
            mai.submit(HIGH + "# other code\n", idempotency_key="reused-1")
        assert "Idempotency-Key" in conflict.value.detail
        waiting = mai.submit(HIGH)
        alice.deny(waiting.execution_id, "no")
        with pytest.raises(Conflict):
            alice.confirm(waiting.execution_id)
        with pytest.raises(TooLarge):
            mai.submit("x = 1\n" * (MAX_CODE_BYTES // 6 + 10))
        with pytest.raises(InvalidRequest) as invalid:
            mai.submit(HELLO, provenance="martian")
        assert invalid.value.errors[0]["field"] == "provenance"
        with pytest.raises(InvalidRequest):
            mai.submit(HELLO, limits={"timeout_s": 100000})  # above the policy
    for cls in (NotAuthenticated, NotPermitted, NotFound, Conflict, TooLarge, InvalidRequest, HostBusy, ServerError):
        assert issubclass(cls, ProblemError)


def test_no_room_on_the_host_is_host_busy_with_retry_after(tmp_path: Path, docker_client: docker.DockerClient) -> None:
    policies = policies_with(tmp_path, limits={"host": {"memory_share": 0.0001, "queue_wait_s": 0}})
    database_url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, {"mai": ["submitter"]})
    with running_server(tmp_path, database_url, policies) as server, Client(server.url, token=tokens["mai"]) as mai:
        with pytest.raises(HostBusy) as busy:
            mai.run(HELLO)
        assert busy.value.status == 429 and busy.value.retry_after and busy.value.retry_after > 0


def test_docker_not_answering_is_service_unavailable_with_retry_after(tmp_path: Path) -> None:
    policies = policies_with(tmp_path)
    database_url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, {"mai": ["submitter"]})
    env = {"DOCKER_HOST": f"unix://{tmp_path}/no-docker.sock"}
    with running_server(tmp_path, database_url, policies, env) as server, Client(server.url, token=tokens["mai"]) as mai:
        with pytest.raises(ServiceUnavailable) as unavailable:
            mai.run(HELLO)
        assert unavailable.value.status == 503 and unavailable.value.retry_after
        assert isinstance(unavailable.value, ServerError)


def test_a_bad_gateway_in_front_is_a_server_error_retried_only_where_it_is_safe(world: World) -> None:
    with relay_to(world.server.url, "bad-gateway") as relay:
        with Client(relay.url, token=world.tokens["mai"], retries=2, backoff_s=0.01) as mai:
            with pytest.raises(ServerError) as caught:
                mai.get("00000000-0000-0000-0000-000000000000")
            assert caught.value.status == 502 and "Bad Gateway" in caught.value.detail
            assert relay.connections == 3  # a read is repeated
            with pytest.raises(ServerError):
                mai.confirm("00000000-0000-0000-0000-000000000000")
            assert relay.connections == 4  # an answer that runs code is not


def test_no_service_is_a_transport_error_and_silence_a_timeout(world: World) -> None:
    with Client(f"http://127.0.0.1:{free_port()}", token="mst_x", retries=1, backoff_s=0.01) as nobody:
        with pytest.raises(TransportError):
            nobody.health()
    with relay_to(world.server.url, "silent") as relay, Client(relay.url, token="mst_x", timeout=0.5, retries=0) as mai:
        with pytest.raises(Timeout):
            mai.health()


# --- retries --------------------------------------------------------------------------------------


def test_a_submission_whose_answer_was_lost_is_retried_with_its_key_and_runs_once(
    world: World, docker_client: docker.DockerClient
) -> None:
    """The relay hands the first request to the service, lets it run the code and begin to answer,
    then drops the connection: the client sends the same request again with the same key."""
    with relay_to(world.server.url, "drop-first-answer") as relay:
        with Client(relay.url, token=world.tokens["mai"], backoff_s=0.05) as mai:
            execution = mai.run(HELLO + "print('once')\n")  # no key given: the client makes one
        assert relay.dropped_answer.startswith(b"HTTP/1.1 200")  # the first attempt ran and was answered
        assert relay.connections >= 2
    assert (execution.status, execution.stdout) == ("completed", "hello from the sandbox\nonce\n")
    with world.client("audit") as audit:
        events = [event.event for event in audit.events(execution.execution_id)]
    assert [name for name in events if name != "ResourceSampled"] == ["Assessed", "Started", "Completed"]


def test_the_async_client_retries_a_lost_answer_with_the_same_key_and_runs_once(
    world: World, docker_client: docker.DockerClient
) -> None:
    async def run_through(url: str) -> Execution:
        async with AsyncClient(url, token=world.tokens["mai"], backoff_s=0.05) as mai:
            return await mai.run("print('async once')\n", idempotency_key="async-drop-1")

    with relay_to(world.server.url, "drop-first-answer") as relay:
        execution = asyncio.run(run_through(relay.url))
        assert relay.dropped_answer.startswith(b"HTTP/1.1 200") and relay.connections >= 2
    assert (execution.status, execution.stdout) == ("completed", "async once\n")
    with world.client("audit") as audit:
        events = [event.event for event in audit.events(execution.execution_id)]
    assert [name for name in events if name != "ResourceSampled"] == ["Assessed", "Started", "Completed"]


def test_an_answer_to_the_gate_is_not_retried_after_a_dropped_connection(world: World) -> None:
    with world.client("mai") as mai:
        waiting = mai.submit(HIGH)
    with relay_to(world.server.url, "drop-first-answer") as relay:
        with Client(relay.url, token=world.tokens["alice"], backoff_s=0.01) as alice:
            with pytest.raises(TransportError):
                alice.deny(waiting.execution_id, "no")
        assert relay.connections == 1
    with world.client("audit") as audit:
        assert audit.get(waiting.execution_id).status == "rejected"  # the one attempt was delivered


# --- the client's footprint -------------------------------------------------------------------------


def test_using_the_client_imports_nothing_of_the_servers_side(world: World) -> None:
    script = (
        "import json, sys\n"
        "from mai_safety.client import Client\n"
        f"with Client({world.server.url!r}) as mai:\n"
        "    mai.health(); level = mai.assess('print(1)\\n').level\n"
        "heavy = ['semgrep', 'docker', 'bandit', 'eventsourcing', 'fastapi', 'uvicorn', 'cryptography',\n"
        "         'mai_safety.infrastructure', 'mai_safety.application', 'mai_safety.domain']\n"
        "print(json.dumps({'level': level, 'loaded': sorted(m for m in sys.modules if m.split('.')[0] in heavy or any(m.startswith(h) for h in heavy))}))\n"
    )
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    env["MAI_SAFETY_TOKEN"] = world.tokens["mai"]
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer == {"level": "LOW", "loaded": []}
