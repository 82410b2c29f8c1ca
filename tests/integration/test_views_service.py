"""``GET /v1/executions``, ``/v1/pending``, ``/v1/report`` and the views in ``/v1/status``, against
a real ``mai-safety serve``. Only code the gate holds (HIGH, BLOCKED) is submitted: nothing runs,
so no container is started."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .cli_helpers import policies_with
from .service_helpers import Server, grant_tokens, running_server
from .test_service import BLOCKED, HIGH

PRINCIPALS = {"mai": ["submitter"], "other": ["submitter"], "alice": ["approver"], "audit": ["auditor"]}


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str]]]:
    tmp = tmp_path_factory.mktemp("views-service")
    policies = policies_with(tmp)
    database_url = f"sqlite:///{tmp / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, PRINCIPALS)
    with running_server(tmp, database_url, policies) as server:
        for who, code in (("mai", HIGH), ("mai", BLOCKED), ("other", BLOCKED)):
            with server.client(tokens[who]) as client:
                assert client.post("/v1/executions", json={"code": code, "task_id": f"task-{who}"}).json()["status"] == "awaiting_override"
        yield server, tokens


def get(service: tuple[Server, dict[str, str]], who: str, path: str, **params: Any) -> httpx.Response:
    server, tokens = service
    with server.client(tokens[who]) as client:
        return client.get(path, params=params)


def test_a_submitter_lists_only_its_own_executions_and_an_auditor_all(service: tuple[Server, dict[str, str]]) -> None:
    own = get(service, "mai", "/v1/executions").json()
    assert len(own) == 2 and {row["submitter"] for row in own} == {"mai"}
    assert get(service, "mai", "/v1/executions", submitter="other").json() == own
    everything = get(service, "audit", "/v1/executions").json()
    assert len(everything) == 3 and [row["level"] for row in everything] == ["BLOCKED", "BLOCKED", "HIGH"]
    assert [row["task_id"] for row in get(service, "audit", "/v1/executions", task="task-other").json()] == ["task-other"]


def test_approvers_see_what_waits_with_findings_and_submitters_may_not(service: tuple[Server, dict[str, str]]) -> None:
    waiting = get(service, "alice", "/v1/pending").json()
    assert len(waiting) == 3 and all(item["findings"] and item["seconds_left"] > 0 for item in waiting)
    assert get(service, "mai", "/v1/pending").status_code == 403


def test_the_auditor_gets_the_report_tied_to_a_verified_ledger(service: tuple[Server, dict[str, str]]) -> None:
    report = get(service, "audit", "/v1/report").json()
    assert report["by_level"] == {"HIGH": 1, "BLOCKED": 2} and report["pending"] == 3
    assert report["ledger"]["verified"] is True and report["ledger"]["head_position"] > 0
    assert get(service, "alice", "/v1/report").status_code == 403


@pytest.mark.parametrize(
    ("path", "params", "field"),
    [
        ("/v1/executions", {"status": "sleeping"}, "status"),
        ("/v1/executions", {"level": "SEVERE"}, "level"),
        ("/v1/executions", {"since": "yesterday"}, "since"),
        ("/v1/executions", {"since": "2030-01-02T00:00:00Z", "until": "2030-01-01T00:00:00Z"}, "until"),
        ("/v1/report", {"since": "2030-01-02", "until": "2030-01-01"}, "until"),
    ],
)
def test_bad_filters_are_a_problem_naming_the_field(
    service: tuple[Server, dict[str, str]], path: str, params: dict[str, str], field: str
) -> None:
    response = get(service, "audit", path, **params)
    assert response.status_code == 422 and response.headers["content-type"] == "application/problem+json"
    body = response.json()
    named = [error["field"] for error in body.get("errors", [])] + [body.get("field", "")]
    assert any(name.endswith(field) for name in named)


def test_the_status_shows_the_views_lag_and_what_waits(service: tuple[Server, dict[str, str]]) -> None:
    projections = get(service, "audit", "/v1/status").json()["projections"]
    assert projections["head"] >= projections["position"] > 0
    assert projections["lag"] == projections["head"] - projections["position"]
    assert projections["pending"] == 3 and projections["oldest_pending_since"]
