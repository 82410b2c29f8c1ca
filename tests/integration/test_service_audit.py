"""`GET /v1/audit/export` and `/v1/audit/verify` as an auditor meets them: a real `mai-safety
serve`, a real HTTP client. The exported bundle is the CLI's and verifies on a machine with no
database; nobody but an auditor gets it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import docker
import httpx
import pytest

from .cli_helpers import policies_with, run_cli
from .service_helpers import Server, grant_tokens, running_server

PRINCIPALS = {"mai": ["submitter"], "alice": ["approver"], "audit": ["auditor"], "admin": ["admin"]}
HIGH = 'import subprocess\ntry:\n    subprocess.run(["sudo", "true"])\nexcept OSError:\n    pass\nprint("x")\n'
NO_DATABASE = "postgresql://nobody:nothing@127.0.0.1:9/none"  # verifying a bundle must never need one


@dataclass
class World:
    server: Server
    tokens: dict[str, str]
    env: dict[str, str]
    executions: list[str]

    def get(self, who: str | None, path: str, **params: Any) -> httpx.Response:
        with self.server.client(self.tokens.get(who or "", None)) as client:
            return client.get(path, params=params)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, docker_client: docker.DockerClient) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("audit")
    policies = policies_with(tmp)
    database_url = f"sqlite:///{tmp / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, PRINCIPALS)
    with running_server(tmp, database_url, policies) as server, server.client(tokens["mai"]) as client:
        executions = [
            client.post("/v1/executions", json={"code": code}).json()["execution_id"]
            for code in ("print('one')\n", HIGH, "print('two' * 40000)\n")  # the last one's output is kept as a blob
        ]
        yield World(server, tokens, {"MAI_SAFETY_DATABASE_URL": database_url, "MAI_SAFETY_POLICIES": str(policies)}, executions)


def lines_of(response: httpx.Response) -> list[dict[str, Any]]:
    return [json.loads(line) for line in response.text.splitlines()]


def verify_bundle(path: Path) -> tuple[int, str]:
    result = run_cli(["audit", "verify", "--bundle", str(path)], {"MAI_SAFETY_DATABASE_URL": NO_DATABASE})
    return result.returncode, result.stdout + result.stderr


def test_an_auditor_exports_the_bundle_the_cli_writes_and_it_verifies_with_no_database(world: World, tmp_path: Path) -> None:
    response = world.get("audit", "/v1/audit/export")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/x-ndjson")
    assert "attachment" in response.headers["content-disposition"]
    lines = lines_of(response)
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "end"
    assert {line["type"] for line in lines} >= {"event", "checkpoint", "blob"}
    bundle = tmp_path / "bundle.jsonl"
    bundle.write_text(response.text)
    code, said = verify_bundle(bundle)
    assert code == 0 and said.startswith("bundle intact"), said
    # The CLI's bundle of the same ledger holds the very same events.
    cli = run_cli(["audit", "export"], world.env)
    assert cli.returncode == 0, cli.stderr
    events = [line for line in lines if line["type"] == "event"]
    assert [line for line in map(json.loads, cli.stdout.splitlines()) if line["type"] == "event"][: len(events)] == events


def test_an_export_of_one_execution_shows_the_others_as_hashes_only_and_verifies(world: World, tmp_path: Path) -> None:
    chosen = world.executions[0]
    response = world.get("audit", "/v1/audit/export", execution=chosen)
    assert response.status_code == 200, response.text
    assert chosen in response.headers["content-disposition"]
    lines = lines_of(response)
    assert {line["execution"] for line in lines if line["type"] == "event"} == {chosen}
    assert lines[0]["scope"]["execution"] == chosen  # others' events inside its range appear as hashes only
    assert not any(world.executions[2] in json.dumps(line) for line in lines)
    bundle = tmp_path / "one.jsonl"
    bundle.write_text(response.text)
    assert verify_bundle(bundle)[0] == 0


def test_a_range_of_positions_exports_and_verifies(world: World, tmp_path: Path) -> None:
    response = world.get("audit", "/v1/audit/export", **{"from": 2, "to": 5})
    assert response.status_code == 200, response.text
    lines = lines_of(response)
    assert lines[0]["scope"]["from"] == 2
    bundle = tmp_path / "range.jsonl"
    bundle.write_text(response.text)
    assert verify_bundle(bundle)[0] == 0


@pytest.mark.parametrize(
    ("who", "params", "status"),
    [
        (None, {}, 401),
        ("mai", {}, 403),  # a submitter
        ("alice", {}, 403),  # an approver reads executions, but not the whole ledger
        ("admin", {}, 403),
        ("audit", {"execution": "00000000-0000-0000-0000-000000000000"}, 404),
        ("audit", {"execution": "not-an-id"}, 404),
        ("audit", {"from": 0}, 422),
        ("audit", {"from": "x"}, 422),
        ("audit", {"execution": "{first}", "from": 1}, 422),
    ],
)
def test_nobody_but_an_auditor_gets_the_ledger_and_a_bad_scope_is_a_problem(world: World, who: str | None, params: dict[str, Any], status: int) -> None:
    params = {key: (value.format(first=world.executions[0]) if isinstance(value, str) else value) for key, value in params.items()}
    response = world.get(who, "/v1/audit/export", **params)
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert "Traceback" not in response.text


def test_verify_answers_as_the_cli_does(world: World) -> None:
    report = world.get("audit", "/v1/audit/verify").json()
    assert report["intact"] and report["complete"], report["problems"]
    cli = json.loads(run_cli(["audit", "verify", "--json"], world.env).stdout)
    assert cli["intact"] and cli["head_position"] >= report["head_position"]
    assert world.get("mai", "/v1/audit/verify").status_code == 403


def test_a_reader_that_leaves_mid_export_stops_it_and_the_service_answers_on(world: World, tmp_path: Path) -> None:
    for _ in range(5):
        with world.server.client(world.tokens["audit"]) as client, client.stream("GET", "/v1/audit/export") as response:
            assert response.status_code == 200
            next(response.iter_bytes(64))  # the first bytes, then the reader leaves
    response = world.get("audit", "/v1/audit/export")
    assert response.status_code == 200 and lines_of(response)[-1]["type"] == "end"
    status = world.get("audit", "/v1/status").json()
    assert status["ok"]
    assert world.get("audit", "/v1/audit/verify").json()["intact"]
