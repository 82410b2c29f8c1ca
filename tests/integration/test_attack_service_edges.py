"""The smaller findings of issue 23 (item 8), each as the attack, against a real `mai-safety serve`
and a real HTTP client: a backwards export range, policy file names that are no file's, an
execution unreadable between its 202 and its record, and an assessment judged by the policy
before the one just applied."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import docker
import pytest

from mai_safety.client import Client, PendingExecution

from .cli_helpers import policies_with
from .service_helpers import Server, grant_tokens, read_events, running_server

PRINCIPALS = {"mai": ["submitter"], "eve": ["submitter"], "alice": ["approver"], "audit": ["auditor"], "ops": ["admin"]}
#: LOW under the shipped policies; HIGH once Bandit's B101 (assert used) is rated HIGH.
ASSERTS = "assert len('abc') == 3\nprint('asserted')\n"


@dataclass
class World:
    server: Server
    tokens: dict[str, str]
    policies: Path
    data_dir: Path

    def call(self, who: str, method: str, path: str, **options: Any) -> Any:
        with self.server.client(self.tokens[who]) as client:
            return client.request(method, path, **options)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("edges")
    policies = policies_with(tmp)
    database_url = f"sqlite:///{tmp / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, PRINCIPALS)
    data_dir = tmp / "data"
    with running_server(tmp, database_url, policies, env={"MAI_SAFETY_DATA_DIR": str(data_dir)}) as server:
        yield World(server, tokens, policies, data_dir)


def _policy_files(folder: Path) -> dict[str, str]:
    return {path.relative_to(folder).as_posix(): path.read_text() for path in sorted(folder.glob("**/*.yaml"))}


def _is_problem(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    return body


def test_an_export_whose_range_runs_backwards_is_a_problem_naming_from_and_to(world: World) -> None:
    problem = _is_problem(world.call("audit", "GET", "/v1/audit/export", params={"from": 100, "to": 1}), 422)
    assert problem["field"] == "from" and "from 100" in problem["detail"] and "to 1" in problem["detail"]
    assert "Traceback" not in world.server.output()


def test_an_export_from_past_the_ledgers_end_is_a_problem_not_a_bundle_of_nothing(world: World) -> None:
    for params in ({"from": 100000}, {"from": 100000, "to": 200000}):
        problem = _is_problem(world.call("audit", "GET", "/v1/audit/export", params=params), 422)
        assert problem["field"] == "from" and "past the ledger's last position" in problem["detail"], problem


@pytest.mark.parametrize("name", ["", "\x00", "gate.yaml\x00.txt", ".", "./", "semgrep", "semgrep/", "notes.txt", "a\\b.yaml", "sub/dir/x.yaml"])
def test_a_policy_file_name_that_is_no_policy_file_is_refused_by_name_and_changes_nothing(world: World, name: str) -> None:
    before = world.call("ops", "GET", "/v1/policies/current").json()
    written = sorted((world.data_dir / "policies").glob("**/*"))
    for files in ({name: "0"}, {**_policy_files(world.policies), name: "x: 1\n"}):
        problem = _is_problem(world.call("ops", "POST", "/v1/policies", json={"files": files}), 422)
        assert problem["field"] == "files" and repr(name) in problem["detail"], problem
    assert world.call("ops", "GET", "/v1/policies/current").json() == before  # nothing recorded
    assert sorted((world.data_dir / "policies").glob("**/*")) == written  # nothing written for a loader to read
    assert "Traceback" not in world.server.output()


def test_once_a_stricter_policy_is_applied_every_later_assessment_is_judged_by_it(world: World, tmp_path: Path) -> None:
    """The verdict of ASSERTS was kept (by its hash) under the policy in force; the apply answers,
    and the very next assessment, of that code or of code never seen, is the new policy's."""
    unseen = ASSERTS.replace("abc", "abcd").replace("3", "4")
    assert world.call("mai", "POST", "/v1/assessments", json={"code": ASSERTS}).json()["level"] == "LOW"
    stricter = policies_with(tmp_path, assessment={"bandit.rules": {"B101": "HIGH"}})
    applied = world.call("ops", "POST", "/v1/policies", json={"files": _policy_files(stricter)})
    assert applied.status_code == 200, applied.text
    for code in (ASSERTS, unseen):
        assessed = world.call("mai", "POST", "/v1/assessments", json={"code": code})
        assert assessed.status_code == 200 and assessed.json()["level"] == "HIGH", assessed.text


#: LOW code that takes the analyzers a second or more to read (about 90 KB): its 202 comes long
#: before its first event is recorded.
SLOW_TO_ASSESS = "".join(f"value_{i} = sum(range({i}))\n" for i in range(2000)) + "print('assessed and ran')\n"


def test_an_execution_is_its_submitters_to_read_and_follow_from_the_moment_its_id_is_handed_out(
    world: World, docker_client: docker.DockerClient
) -> None:
    """The 202 hands out the id while the code is still assessed (nothing recorded): its
    submitter's GET answers 202 ``assessing`` and its stream follows it to its end; anyone else
    gets the 404 of an unknown id."""
    with world.server.client(world.tokens["mai"]) as mai, world.server.client(world.tokens["eve"]) as eve:
        submitted = mai.post("/v1/executions", json={"code": SLOW_TO_ASSESS, "wait_s": 0})
        assert submitted.status_code == 202 and submitted.json()["status"] == "assessing", submitted.text
        execution_id = submitted.json()["execution_id"]
        path = f"/v1/executions/{execution_id}"
        with mai.stream("GET", f"{path}/stream") as stream:
            assert stream.status_code == 200, stream.read()
            events = read_events(stream)
            _, first, data = next(events)
            assert (first, data) == ("state", {"execution_id": execution_id, "status": "assessing"})
            read = mai.get(path)  # the stream has just said it is not recorded yet
            assert read.status_code == 202, read.text
            assert read.json() == {"execution_id": execution_id, "status": "assessing"} and read.headers["location"] == path
            with Client(world.server.url, token=world.tokens["mai"]) as typed:  # the client reads it as pending
                assert typed.get(execution_id) == PendingExecution(execution_id=execution_id, status="assessing")
            for others in (eve.get(path), eve.get(f"{path}/stream")):
                _is_problem(others, 404)
            seen = [(name, body) for _, name, body in events]
        assert seen[0][0] == "state" and seen[-1][0] == "end", seen
        assert seen[-1][1]["status"] == "completed" and "assessed and ran" in seen[-1][1]["stdout"]
        assert mai.get(path).json()["status"] == "completed"
        _is_problem(eve.get(path), 404)
