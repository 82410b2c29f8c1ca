"""`GET /v1/executions/{id}/stream` as a caller meets it: a real `mai-safety serve`, a real HTTP
client, real Docker. Written as the attacks it must withstand: a submitter streaming another's
execution, a client opening streams until it is refused, a reader that never reads while the
program prints a lot."""

from __future__ import annotations

import json
import signal
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import docker
import httpx
import pytest

from .cli_helpers import policies_with
from .service_helpers import Server, grant_tokens, read_events, running_server

PRINCIPALS = {"mai": ["submitter"], "other": ["submitter"], "alice": ["approver"], "audit": ["auditor"]}
TICKING = "import time\nfor i in range(6):\n    print('tick', i, flush=True)\n    time.sleep(0.5)\n"
HIGH = 'import subprocess\ntry:\n    subprocess.run(["sudo", "true"])\nexcept OSError:\n    pass\nprint("confirmed and ran")\n'
PROBLEM = "application/problem+json"


@dataclass
class World:
    server: Server
    tokens: dict[str, str]
    database_url: str
    policies: Path

    def client(self, who: str | None) -> httpx.Client:
        return self.server.client(self.tokens.get(who or "", None))


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("stream")
    policies = policies_with(tmp)
    database_url = f"sqlite:///{tmp / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, PRINCIPALS)
    with running_server(tmp, database_url, policies, args=["--max-streams", "3", "--max-streams-per-principal", "2"]) as server:
        yield World(server, tokens, database_url, policies)


def stream_all(world: World, who: str, execution_id: str, timeout: float = 60) -> list[tuple[float, str, Any]]:
    with world.client(who) as client, client.stream("GET", f"/v1/executions/{execution_id}/stream", timeout=timeout) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        return list(read_events(response))


def submit(world: World, who: str, code: str, **fields: Any) -> dict[str, Any]:
    with world.client(who) as client:
        response = client.post("/v1/executions", json={"code": code, **fields})
    assert response.status_code in (200, 202), response.text
    return response.json()


def submit_recorded(world: World, who: str, code: str) -> str:
    """Submit without waiting for the end; return once the execution is recorded (a 202 may come
    while it is still being assessed, before there is anything to stream)."""
    execution_id = submit(world, who, code, wait_s=0)["execution_id"]
    deadline = time.monotonic() + 30
    with world.client(who) as client:
        while client.get(f"/v1/executions/{execution_id}").status_code in (202, 404):  # 202: its submitter reads it while it is assessed
            assert time.monotonic() < deadline, "the execution was never recorded"
            time.sleep(0.05)
    return execution_id


def assert_problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM
    return response.json()


def test_a_running_execution_streams_its_samples_and_output_as_they_come_then_its_end(world: World, docker_client: docker.DockerClient) -> None:
    execution_id = submit_recorded(world, "mai", TICKING)
    events = stream_all(world, "mai", execution_id)
    kinds = [kind for _, kind, _ in events]
    assert kinds[0] == "state" and kinds[-1] == "end", kinds
    assert "sample" in kinds and "recorded" in kinds  # Started (or Assessed) as recorded
    outputs = [(at, data) for at, kind, data in events if kind == "output"]
    assert "".join(data["text"] for _, data in outputs if data["stream"] == "stdout") == "".join(f"tick {i}\n" for i in range(6))
    end_at, _, end = events[-1]
    assert (end["status"], end["exit_code"], end["stdout"]) == ("completed", 0, "".join(f"tick {i}\n" for i in range(6)))
    # As it comes: the first tick arrived while the program was still printing, not with the end.
    assert end_at - outputs[0][0] > 1.5, [(round(end_at - at, 2), data) for at, data in outputs]
    samples = [data for _, kind, data in events if kind == "sample"]
    assert all("memory_bytes" in sample["sample"] for sample in samples)
    # Nothing was recorded for the stream: the events are those of the run alone.
    with world.client("mai") as client:
        history = client.get(f"/v1/executions/{execution_id}/events").json()
    assert [event["event"] for event in history if event["event"] != "ResourceSampled"] == ["Assessed", "Started", "Completed"]
    assert len(samples) == sum(1 for event in history if event["event"] == "ResourceSampled")


def test_a_finished_execution_sends_its_recorded_samples_and_end_and_closes(world: World, docker_client: docker.DockerClient) -> None:
    report = submit(world, "mai", TICKING)
    assert report["status"] == "completed"
    started = time.monotonic()
    events = stream_all(world, "mai", report["execution_id"])
    assert time.monotonic() - started < 5
    kinds = [kind for _, kind, _ in events]
    assert kinds[0] == "state" and kinds[-1] == "end" and "sample" in kinds and "output" not in kinds
    assert events[-1][2]["stdout"] == report["stdout"]


def test_a_waiting_execution_streams_its_answer_its_run_and_its_end(world: World, docker_client: docker.DockerClient) -> None:
    execution_id = submit(world, "mai", HIGH)["execution_id"]
    seen: list[tuple[float, str, Any]] = []
    with world.client("mai") as client, client.stream("GET", f"/v1/executions/{execution_id}/stream") as response:
        assert response.status_code == 200
        events = read_events(response)
        seen.append(next(events))
        assert seen[0][1:] == ("state", {"execution_id": execution_id, "status": "awaiting_override"})
        with world.client("alice") as approver:
            assert approver.post(f"/v1/executions/{execution_id}/confirm", json={"explanation": "reviewed"}).status_code == 200
        seen.extend(events)
    recorded = [data["event"] for _, kind, data in seen if kind == "recorded"]
    assert recorded[-2:] == ["Overridden", "Started"]
    assert seen[-1][1] == "end" and seen[-1][2]["stdout"] == "confirmed and ran\n"


def test_a_submitter_cannot_stream_anothers_execution_nor_learn_that_it_exists(world: World, docker_client: docker.DockerClient) -> None:
    execution_id = submit(world, "mai", "print('mine')\n")["execution_id"]
    with world.client("other") as client:
        theirs = assert_problem(client.get(f"/v1/executions/{execution_id}/stream"), 404)
        unknown = assert_problem(client.get("/v1/executions/00000000-0000-0000-0000-000000000000/stream"), 404)
    assert theirs["title"] == unknown["title"]
    with world.client(None) as client:
        assert_problem(client.get(f"/v1/executions/{execution_id}/stream"), 401)
    assert stream_all(world, "audit", execution_id)[-1][2]["stdout"] == "mine\n"  # an auditor reads every one


def open_stream(stack: ExitStack, world: World, who: str, execution_id: str) -> httpx.Response:
    client = stack.enter_context(world.client(who))
    return stack.enter_context(client.stream("GET", f"/v1/executions/{execution_id}/stream"))


def open_count(world: World) -> int:
    with world.client("audit") as client:
        return int(client.get("/v1/status").json()["streams"]["open"])


def test_a_client_that_opens_streams_until_refused_is_told_429_and_others_still_get_theirs(world: World) -> None:
    """The server allows 3 streams, 2 per principal. Streams of a waiting execution stay open."""
    waiting = submit(world, "mai", HIGH)["execution_id"]
    with ExitStack() as stack:
        held = [open_stream(stack, world, "mai", waiting) for _ in range(2)]
        assert all(response.status_code == 200 for response in held)
        refused = open_stream(stack, world, "mai", waiting)
        refused.read()
        body = assert_problem(refused, 429)
        assert int(refused.headers["retry-after"]) > 0 and "mai" in body["detail"]
        third = open_stream(stack, world, "audit", waiting)  # another principal: within the server's 3
        assert third.status_code == 200
        full = open_stream(stack, world, "alice", waiting)
        full.read()
        assert "server" in assert_problem(full, 429)["detail"]
        assert open_count(world) == 3
    # Closed by the client: the slots come back.
    deadline = time.monotonic() + 10
    while open_count(world) != 0:
        assert time.monotonic() < deadline, "closed streams were not given back"
        time.sleep(0.1)
    with ExitStack() as stack:
        assert open_stream(stack, world, "mai", waiting).status_code == 200
    with world.client("mai") as client:
        client.post(f"/v1/executions/{waiting}/cancel")


def test_a_reader_that_never_reads_while_the_program_prints_a_lot_neither_slows_the_run_nor_grows_the_service(
    tmp_path: Path, docker_client: docker.DockerClient
) -> None:
    """The program prints about 24 MiB in about 3 s; the stream's reader reads nothing until the
    run has ended. The run ends on time, what the live output holds stays within its bound
    throughout, and the late reader is told how much it missed, then gets the end."""
    policies = policies_with(tmp_path, limits={"profiles.standard.output": "64m"})
    database_url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, {"mai": ["submitter"]})
    code = (
        "import sys, time\nline = 'x' * 1023 + '\\n'\nstart = time.monotonic()\n"
        "for i in range(24 * 1024):\n    sys.stdout.write(line)\n    if i % 1024 == 0:\n        time.sleep(0.1)\n"
        "print('done', round(time.monotonic() - start, 2))\n"
    )
    with running_server(tmp_path, database_url, policies) as server, server.client(tokens["mai"]) as client:
        execution_id = client.post("/v1/executions", json={"code": code, "wait_s": 0}).json()["execution_id"]
        while client.get(f"/v1/executions/{execution_id}").status_code in (202, 404):  # 202: its submitter reads it while it is assessed
            time.sleep(0.05)
        host, port = server.url.removeprefix("http://").split(":")
        reader = socket.create_connection((host, int(port)))
        reader.sendall(
            f"GET /v1/executions/{execution_id}/stream HTTP/1.1\r\nHost: {host}\r\n"
            f"Authorization: Bearer {tokens['mai']}\r\n\r\n".encode()
        )
        held: list[int] = []
        started = time.monotonic()
        while True:
            status = client.get("/v1/status").json()
            held.append(status["streams"]["live"]["held_bytes"])
            report = client.get(f"/v1/executions/{execution_id}").json()
            if report["status"] in ("completed", "terminated", "rejected"):
                break
            assert time.monotonic() - started < 30, "the run did not end on time"
            time.sleep(0.2)
        ended_after = time.monotonic() - started
        assert report["status"] == "completed", report
        assert report["stdout"].endswith("\n") and len(report["stdout"]) > 24 * 1024 * 1024
        assert ended_after < 20, ended_after
        assert max(held) <= 64 * 1024 + 256 * 1024 + 64 * 1024, held  # backlog + one watcher + a chunk
        assert status["streams"]["open"] == 1
        # Now the reader reads: what it missed is named, and the end comes.
        reader.settimeout(30)
        received = bytearray()
        while b"event: end" not in received:
            chunk = reader.recv(1 << 20)
            assert chunk, "the stream closed without its end"
            received += chunk
        reader.close()
        text = received.decode("utf-8", "replace")
        assert "event: dropped" in text and "event: end" in text
        missed = sum(
            json.loads(line[5:])["bytes"] for block in text.split("\n\n") if "event: dropped" in block
            for line in block.splitlines() if line.startswith("data:")
        )
        assert missed > 16 * 1024 * 1024


def test_sigterm_closes_open_streams_so_they_do_not_hold_the_service_up(tmp_path: Path) -> None:
    policies = policies_with(tmp_path)
    database_url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, {"mai": ["submitter"]})
    with running_server(tmp_path, database_url, policies, args=["--grace", "20"]) as server, server.client(tokens["mai"]) as client:
        waiting = client.post("/v1/executions", json={"code": HIGH}).json()["execution_id"]
        with client.stream("GET", f"/v1/executions/{waiting}/stream") as response:
            events = read_events(response)
            assert next(events)[1] == "state"
            server.process.send_signal(signal.SIGTERM)
            started = time.monotonic()
            rest = [kind for _, kind, _ in events]
        assert rest[-1] == "closing" and "end" not in rest, rest  # the execution still waits: no end
        assert server.process.wait(timeout=15) == 0, server.output()
        assert time.monotonic() - started < 10  # not the 20 s grace


def test_a_revoked_token_loses_its_open_stream_too(world: World, tmp_path: Path) -> None:
    """A revocation holds from the next request on; a stream is one long request, so it looks again as it goes."""
    from mai_safety.infrastructure.bootstrap import bootstrap

    from .conftest import settings_for

    database_url, policies = world.database_url, world.policies
    token = grant_tokens(database_url, policies, {"temp": ["auditor"]})["temp"]
    waiting = submit(world, "mai", HIGH)["execution_id"]
    with world.server.client(token) as client, client.stream("GET", f"/v1/executions/{waiting}/stream") as response:
        events = read_events(response)
        assert next(events)[1] == "state"
        app = bootstrap(settings_for(database_url, policies), warm_semgrep=False)
        try:
            app.revoke_tokens("temp", "left")
        finally:
            app.close()
        revoked_at = time.monotonic()
        rest = list(events)
    assert rest[-1][1] == "closing" and "token" in rest[-1][2]["detail"]
    assert rest[-1][0] - revoked_at < 5
    with world.client("mai") as client:
        client.post(f"/v1/executions/{waiting}/cancel")
