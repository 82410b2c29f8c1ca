"""The service's warm path as shipped (docs/decisions/0015): `mai-safety serve` over the shipped
policies keeps two started containers for standard runs, each given to one run with its runner
already waiting, and removes each after answering. Through a real uvicorn and httpx, real Docker."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import docker
import httpx

from mai_safety.infrastructure.settings import PROJECT_ROOT

from .conftest import containers_of_this_run
from .service_helpers import grant_tokens, running_server

HOSTNAME = "import socket\nprint(socket.gethostname())\n"


def _started(client: httpx.Client, execution_id: str) -> dict[str, Any]:
    events = client.get(f"/v1/executions/{execution_id}/events").json()
    return next(event for event in events if event["event"] == "Started")


def _waiting(client: httpx.Client, want: int) -> None:
    deadline = time.monotonic() + 60
    while client.get("/v1/status").json().get("pool", {}).get("standard", {}).get("waiting", 0) < want:
        assert time.monotonic() < deadline, client.get("/v1/status").json().get("pool")
        time.sleep(0.2)


def test_the_shipped_service_runs_each_pooled_container_once_and_leaves_none(
    tmp_path: Path, docker_client: docker.DockerClient
) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    policies = PROJECT_ROOT / "policies"  # as shipped: the pool of two for standard runs
    tokens = grant_tokens(url, policies, {"mai": ["submitter"], "audit": ["auditor"]})
    containers: list[str] = []
    with running_server(tmp_path, url, policies) as server:
        with server.client(tokens["mai"]) as mai, server.client(tokens["audit"]) as audit:
            _waiting(mai, 2)
            for index in range(6):
                if index % 2 == 0:
                    _waiting(mai, 2)  # every other run finds the pool full again; the rest may not
                report = mai.post("/v1/executions", json={"code": HOSTNAME}).json()
                assert report["status"] == "completed", report
                started = _started(audit, report["execution_id"])
                # The code ran in the container Started names (Docker's hostname: the id's first 12).
                assert report["stdout"].strip() == started["container_id"][:12]
                containers.append(started["container_id"])
                host = started["sizing"]["host"]
                if index % 2 == 0:
                    assert host["pooled"] is True and host["pool"]["runner"] == "started ahead", host
            assert len(set(containers)) == len(containers), "a container served two executions"
            assert audit.get("/v1/audit/verify").json()["intact"] is True
        assert server.stop() == 0
    # Stopped: every run's container removed (after its answer) and the pool's waiting ones with them.
    assert containers_of_this_run(docker_client) == []
    for container_id in containers:
        try:
            docker_client.containers.get(container_id)
            raise AssertionError(f"{container_id[:12]} outlived its run")
        except docker.errors.NotFound:
            pass
