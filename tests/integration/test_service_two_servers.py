"""Several servers, one ledger: two real `mai-safety serve` processes on one Postgres database
both answer, write one straight chain, and end each expired wait exactly once; recovery and the
sweep are one process's at a time (a Postgres advisory lock; on SQLite a file lock)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import docker
import pytest

from mai_safety.domain.levels import RiskLevel
from mai_safety.infrastructure.bootstrap import bootstrap
from mai_safety.infrastructure.sandbox.sessions import LABEL_SESSION

from .cli_helpers import policies_with
from .conftest import settings_for
from .service_helpers import Server, grant_tokens, read_events, running_server, running_servers

HELLO = "print('hello from server', {n})\n"
HIGH = 'import subprocess\ntry:\n    subprocess.run(["sudo", "true"])\nexcept OSError:\n    pass\nprint("{n}")\n'


def call(server: Server, token: str, method: str, path: str, body: Any = None) -> Any:
    with server.client(token) as client:
        response = client.request(method, path, json=body)
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.postgres
def test_two_servers_on_one_postgres_answer_write_one_chain_and_end_each_expired_wait_once(
    postgres_url: str, tmp_path: Path, docker_client: docker.DockerClient
) -> None:
    policies = policies_with(tmp_path, gate={"answer_within_s": 2})
    tokens = grant_tokens(postgres_url, policies, {"mai": ["submitter"], "audit": ["auditor"]})
    sweeping = ["--sweep-every", "0.05"]  # both sweep twenty times a second: every round races
    with running_server(tmp_path, postgres_url, policies, args=sweeping) as first, running_server(tmp_path, postgres_url, policies, args=sweeping) as second:
        servers = [first, second]

        def submit(n: int) -> dict[str, Any]:
            code = (HELLO if n % 2 == 0 else HIGH).format(n=n)
            return call(servers[n % 4 // 2], tokens["mai"], "POST", "/v1/executions", {"code": code})

        with ThreadPoolExecutor(4) as pool:
            answers = list(pool.map(submit, range(12)))
        ran = [answer for answer in answers if answer["level"] != RiskLevel.HIGH.value]
        waiting = [answer["execution_id"] for answer in answers if answer["level"] == RiskLevel.HIGH.value]
        assert len(ran) == 6 and len(waiting) == 6
        assert all(answer["status"] == "completed" and answer["stdout"].startswith("hello") for answer in ran)
        supervisors = {
            next(event for event in call(first, tokens["audit"], "GET", f"/v1/executions/{answer['execution_id']}/events") if event["event"] == "Started")["supervisor"]
            for answer in ran
        }
        assert len(supervisors) == 2  # both servers ran code

        # Every wait expires; both sweepers race for it.
        deadline = time.monotonic() + 30
        for execution_id in waiting:
            while call(second, tokens["audit"], "GET", f"/v1/executions/{execution_id}")["status"] == "awaiting_override":
                assert time.monotonic() < deadline, "an expired wait was not ended"
                time.sleep(0.1)
        time.sleep(1)  # more rounds of both sweepers after the ends
        for execution_id in waiting:
            events = call(first, tokens["audit"], "GET", f"/v1/executions/{execution_id}/events")
            assert [event["event"] for event in events] == ["Assessed", "OverrideRequested", "Terminated"], events
            assert events[-1]["reason"] == "no_answer"
            assert events[-1]["actor"] == "mai-safety-service"

        # One straight chain, as both servers see it.
        reports = [call(server, tokens["audit"], "GET", "/v1/audit/verify") for server in servers]
        assert all(report["intact"] for report in reports), [report["problems"] for report in reports]
        assert reports[0]["head_position"] == reports[1]["head_position"]
        assert first.stop() == 0 and second.stop() == 0
    app = bootstrap(settings_for(postgres_url, policies), warm_semgrep=False)
    try:
        report = app.verify()
        assert report.intact, report.problems
        # 2 tokens; 6 runs of Assessed, Started, samples, Completed; 6 waits of 3 events.
        assert report.head_position >= 2 + 6 * 3 + 6 * 3
    finally:
        app.close()


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_while_one_process_sweeps_or_recovers_another_does_not(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """Two applications on one ledger, as two servers are: the lock one holds, the other does not get."""
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}" if backend == "sqlite" else request.getfixturevalue("postgres_url")
    policies = policies_with(tmp_path, gate={"answer_within_s": 1})
    one = bootstrap(settings_for(url, policies), warm_semgrep=False)
    other = bootstrap(settings_for(url, policies), warm_semgrep=False)
    try:
        report = one.run(HIGH.format(n=1).encode())
        assert report.status == "awaiting_override"
        time.sleep(1.2)
        with one.work_lock.hold("sweep") as mine:
            assert mine
            with other.work_lock.hold("sweep", wait_s=0.3) as theirs:
                assert not theirs
            assert other.expire_overdue() == []  # the other sweeps nothing while this one holds it
            with other.work_lock.hold("recovery") as theirs:
                assert theirs  # another kind of work: another lock
            with one.work_lock.hold("recovery"):
                assert other.recover(wait_s=0.2) == []
        assert other.expire_overdue() == [report.execution_id]
        assert one.expire_overdue() == []
        assert [event["event"] for event in one.history(report.execution_id)][-1] == "Terminated"
    finally:
        one.close()
        other.close()


@pytest.mark.postgres
def test_a_run_whose_server_died_is_recovered_once_when_two_servers_start_together(
    postgres_url: str, tmp_path: Path, docker_client: docker.DockerClient
) -> None:
    policies = policies_with(tmp_path)
    tokens = grant_tokens(postgres_url, policies, {"mai": ["submitter"], "audit": ["auditor"]})
    with running_server(tmp_path, postgres_url, policies) as dying, dying.client(tokens["mai"]) as client:
        execution_id = client.post("/v1/executions", json={"code": "import time\ntime.sleep(60)\n", "wait_s": 0}).json()["execution_id"]
        deadline = time.monotonic() + 30
        while client.get(f"/v1/executions/{execution_id}").json().get("status") != "running":
            assert time.monotonic() < deadline, "the run did not start"
            time.sleep(0.1)
        dying.process.kill()  # its supervisor is gone; its container stays until its deadline
        dying.process.wait()
    with running_servers(2, tmp_path, postgres_url, policies) as servers:
        events = call(servers[0], tokens["audit"], "GET", f"/v1/executions/{execution_id}/events")
        ends = [event for event in events if event["event"] in ("Completed", "Terminated")]
        assert len(ends) == 1 and ends[0]["reason"] == "supervisor_lost", ends
        assert ends[0]["actor"] == "mai-safety-service"
        recovered = [server.output().count("recovered 1 execution") for server in servers]
        assert sorted(recovered) == [0, 1], [server.output() for server in servers]
        report = call(servers[1], tokens["audit"], "GET", "/v1/audit/verify")
        assert report["intact"], report["problems"]


@pytest.mark.postgres
def test_a_stream_on_the_other_server_gets_the_samples_and_the_end_and_the_output_whole(
    postgres_url: str, tmp_path: Path, docker_client: docker.DockerClient
) -> None:
    policies = policies_with(tmp_path)
    tokens = grant_tokens(postgres_url, policies, {"mai": ["submitter"]})
    ticking = "import time\nfor i in range(5):\n    print('tick', i, flush=True)\n    time.sleep(0.5)\n"
    with running_servers(2, tmp_path, postgres_url, policies) as (runner, other):
        with runner.client(tokens["mai"]) as client:
            execution_id = client.post("/v1/executions", json={"code": ticking, "wait_s": 0}).json()["execution_id"]
            while client.get(f"/v1/executions/{execution_id}").status_code in (202, 404):  # 202: its submitter reads it while it is assessed
                time.sleep(0.05)
        seen: dict[str, list[tuple[str, Any]]] = {}

        def follow(name: str, server: Server) -> None:
            with server.client(tokens["mai"]) as client, client.stream("GET", f"/v1/executions/{execution_id}/stream") as response:
                assert response.status_code == 200
                seen[name] = [(kind, data) for _, kind, data in read_events(response)]

        with ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda pair: follow(*pair), [("runner", runner), ("other", other)]))
    ticks = "".join(f"tick {i}\n" for i in range(5))
    for name in ("runner", "other"):
        kinds = [kind for kind, _ in seen[name]]
        assert kinds[-1] == "end" and "sample" in kinds, kinds
        assert seen[name][-1][1]["stdout"] == ticks
    assert "".join(data["text"] for kind, data in seen["runner"] if kind == "output") == ticks
    assert not any(kind == "output" for kind, _ in seen["other"])  # output as it comes is the runner's alone
    samples = {name: [data["version"] for kind, data in seen[name] if kind == "sample"] for name in seen}
    assert samples["runner"] == samples["other"]  # the same recorded samples, from the one ledger


@pytest.mark.postgres
def test_a_session_lives_on_the_server_that_holds_it_and_the_next_start_ends_it_once_its_holder_is_killed(
    postgres_url: str, tmp_path: Path, docker_client: docker.DockerClient
) -> None:
    """Issue #27 on several servers: the other server describes the session and says where its
    cells go (409), another submitter is told it does not exist, and once the holder is killed the
    next start ends the session recorded, with its container gone."""
    policies = policies_with(tmp_path)
    tokens = grant_tokens(postgres_url, policies, {"mai": ["submitter"], "other": ["submitter"]})
    with running_server(tmp_path, postgres_url, policies) as holder:
        with holder.client(tokens["mai"]) as client:
            opened = client.post("/v1/sessions")
            assert opened.status_code == 201, opened.text
            session_id = opened.json()["session_id"]
            assert client.post(f"/v1/sessions/{session_id}/executions", json={"code": "x = 41"}).status_code == 200
        with running_server(tmp_path, postgres_url, policies) as elsewhere:
            with elsewhere.client(tokens["mai"]) as client:
                described = client.get(f"/v1/sessions/{session_id}").json()
                assert described["status"] == "open" and len(described["cells"]) == 1, described
                refused = client.post(f"/v1/sessions/{session_id}/executions", json={"code": "print(x + 1)"})
                assert refused.status_code == 409 and "held by another server" in refused.json()["detail"], refused.text
            with elsewhere.client(tokens["other"]) as client:
                assert client.get(f"/v1/sessions/{session_id}").status_code == 404
            holder.process.kill()  # its sessions' keepers let go when its connections drop
            holder.process.wait()
    with running_server(tmp_path, postgres_url, policies) as after, after.client(tokens["mai"]) as client:
        described = client.get(f"/v1/sessions/{session_id}").json()
        assert described["status"] == "ended" and described["ended_reason"] == "recovery", described
    deadline = time.monotonic() + 30
    while docker_client.containers.list(all=True, filters={"label": f"{LABEL_SESSION}={session_id}"}):
        assert time.monotonic() < deadline, "the killed holder's session container is still there"
        time.sleep(0.2)
