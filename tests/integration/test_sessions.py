"""Sessions (issue #27) as a caller meets them: a real `mai-safety serve`, a real HTTP client, real
Docker (gVisor where the engine has it), a SQLite ledger of the test's own. Written as a user checks
them and as the attacks they must stop: state kept between cells, another submitter's session,
a reverse shell split across cells under other names, an interpreter killed by its own cell, a
session ended by its caller or by idleness, and a service killed with its sessions open."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncio
import json
import subprocess
import sys

import docker
import httpx
import psutil
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from mai_safety.client import Client

from mai_safety.infrastructure.sandbox.sessions import LABEL_SESSION

from .cli_helpers import policies_with
from .service_helpers import ServedLedger, grant_tokens, running_server, served_ledger

PRINCIPALS = {"mai": ["submitter"], "other": ["submitter"], "sec": ["security-officer"], "audit": ["auditor"]}
PROBLEM = "application/problem+json"
PER_PRINCIPAL, MAX_CELLS = 3, 40  # limits.yaml sessions: for these tests (shipped: 4 and 1,000)
MAX_OUTPUT_BYTES = 64 * 1024  # limits.yaml files: for these tests (shipped: 10m)


class World(ServedLedger):
    def call(self, who: str, method: str, path: str, body: Any = None) -> httpx.Response:
        with self.server.client(self.tokens[who]) as client:
            return client.request(method, path, json=body)

    def open(self, who: str = "mai", **asked: Any) -> str:
        response = self.call(who, "POST", "/v1/sessions", asked or None)
        assert response.status_code == 201, response.text
        return str(response.json()["session_id"])

    def cell(self, session_id: str, code: str, who: str = "mai") -> httpx.Response:
        return self.call(who, "POST", f"/v1/sessions/{session_id}/executions", {"code": code})

    def ran(self, session_id: str, code: str) -> dict[str, Any]:
        response = self.cell(session_id, code)
        assert response.status_code == 200, response.text
        return dict(response.json())


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    with served_ledger(
        tmp_path_factory.mktemp("sessions"), PRINCIPALS, args=["--sweep-every", "0.5"], gate={"confirm": ["*"], "override": ["*"]},
        limits={"sessions": {"per_principal": PER_PRINCIPAL, "max_cells": MAX_CELLS}, "files": {"max_output_bytes": MAX_OUTPUT_BYTES}},
    ) as served:
        yield World(**vars(served))


def containers_of(session_id: str) -> list[Any]:
    client = docker.from_env()
    try:
        return list(client.containers.list(all=True, filters={"label": f"{LABEL_SESSION}={session_id}"}))
    finally:
        client.close()


def containers_of_any_session() -> list[Any]:
    client = docker.from_env()
    try:
        return list(client.containers.list(all=True, filters={"label": LABEL_SESSION}))
    finally:
        client.close()


def console(args: list[str], env: dict[str, str], stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """The console script as a user runs it (entry.py decides the door: the service, with the URL set)."""
    full_env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    return subprocess.run(
        [sys.executable, "-m", "mai_safety.infrastructure.cli.entry", *args], env={**full_env, **env},
        input=stdin.decode() if stdin else None, capture_output=True, text=True, timeout=120, check=False,
    )


def assert_problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM and "Traceback" not in response.text
    return dict(response.json())


def test_variables_and_files_persist_between_cells_and_each_cell_is_a_recorded_execution(world: World) -> None:
    session_id = world.open()
    try:
        first = world.ran(session_id, "x = 41\nwith open('kept.txt', 'w') as out:\n    out.write('kept')\n")
        second = world.ran(session_id, "print(x + 1, open('kept.txt').read())")
        assert first["status"] == "completed" and second["status"] == "completed"
        assert second["stdout"] == "42 kept\n"
        assert second["caller"]["sandbox_session"] == session_id  # each cell an Execution of the session
        described = world.call("mai", "GET", f"/v1/sessions/{session_id}").json()
        assert [cell["execution_id"] for cell in described["cells"]] == [first["execution_id"], second["execution_id"]]
        assert [(item["name"], item["size"]) for item in described["workspace"]] == [("kept.txt", 4)]
        assert "self-reported" in described["workspace_listed_by"]  # the cells' code shares the interpreter's process
        assert described["trust"] == "untrusted" and described["status"] == "open"
        # The session's events and its cells' verify with the rest of the ledger.
        report = world.call("audit", "GET", "/v1/audit/verify").json()
        assert report["intact"], report["problems"]
    finally:
        world.call("mai", "DELETE", f"/v1/sessions/{session_id}")


def test_the_files_a_cell_creates_or_changes_are_kept_as_blobs_on_its_execution_and_served_back(world: World) -> None:
    session_id = world.open()
    try:
        wrote = world.ran(session_id, "import os\nos.makedirs('out', exist_ok=True)\nopen('out/data.csv', 'w').write('a,b\\n1,2\\n')\n"
                                      "open('big.bin', 'wb').write(b'x' * %d)" % (MAX_OUTPUT_BYTES + 1))
        listed = world.call("mai", "GET", f"/v1/executions/{wrote['execution_id']}/files").json()
        assert [(item["name"], item["bytes"]) for item in listed["files_out"]] == [("out/data.csv", 8)]
        served = world.call("mai", "GET", f"/v1/executions/{wrote['execution_id']}/files/out/data.csv")
        assert served.status_code == 200 and served.content == b"a,b\n1,2\n"
        events = world.call("mai", "GET", f"/v1/executions/{wrote['execution_id']}/events").json()
        note = next(event for event in events if event["event"] == "Completed")["outcome"]["observations"]["files_out"]
        assert "self-reported" in note["through"]  # the interpreter read them, in the process that ran the code
        assert [(item["name"], item["why"]) for item in note["left_out"]] == [("big.bin", "over the policy's bounds")]
        # A cell that leaves the files as they were keeps nothing; one that changes a file keeps its new bytes.
        unchanged = world.ran(session_id, "len(open('out/data.csv').read())")
        assert world.call("mai", "GET", f"/v1/executions/{unchanged['execution_id']}/files").json()["files_out"] == []
        changed = world.ran(session_id, "open('out/data.csv', 'a').write('3,4\\n')")
        again = world.call("mai", "GET", f"/v1/executions/{changed['execution_id']}/files/out/data.csv")
        assert again.content == b"a,b\n1,2\n3,4\n"
        # Another submitter cannot read a cell's files.
        assert world.call("other", "GET", f"/v1/executions/{wrote['execution_id']}/files/out/data.csv").status_code == 404
    finally:
        world.call("mai", "DELETE", f"/v1/sessions/{session_id}")


def test_a_cell_that_rewrites_its_interpreter_to_send_forged_files_gets_none_of_them_kept(world: World) -> None:
    # The interpreter runs in the cell's own process: a cell can replace what it sends. The service
    # takes what comes as the code's word: a name that climbs out, a path, bytes that are not base64
    # or past the bound are left out, named; nothing of theirs is kept.
    forged = (
        "import base64, sys\n"
        "big = base64.b64encode(b'x' * %d).decode()\n"
        "sys.modules['__main__']._Outputs.record = lambda self: {'files': [\n"
        "    {'name': '../escape.txt', 'data': 'aGk='}, {'name': '/etc/passwd', 'data': 'aGk='},\n"
        "    {'name': 'bad.bin', 'data': '***'}, {'name': 'big.bin', 'data': big}, 'not a record'],\n"
        "    'left_out': [], 'left_out_count': -5}\n"
    ) % (MAX_OUTPUT_BYTES + 1)
    session_id = world.open()
    try:
        cell = world.ran(session_id, forged)
        assert cell["status"] == "completed", cell
        assert world.call("mai", "GET", f"/v1/executions/{cell['execution_id']}/files").json()["files_out"] == []
        events = world.call("mai", "GET", f"/v1/executions/{cell['execution_id']}/events").json()
        note = next(event for event in events if event["event"] == "Completed")["outcome"]["observations"]["files_out"]
        assert note["collected"] == 0 and note["left_out_count"] == 5, note
        assert "self-reported" in note["through"]
    finally:
        world.call("mai", "DELETE", f"/v1/sessions/{session_id}")


def test_a_session_asking_for_the_network_is_refused_before_anything_is_made(world: World, tmp_path: Path) -> None:
    sessions_before = len(containers_of_any_session())
    refused = assert_problem(world.call("mai", "POST", "/v1/sessions", {"network": "deps"}), 422)
    assert refused["field"] == "network" and "untrusted" in refused["detail"]
    env = {"MAI_SAFETY_URL": world.server.url, "MAI_SAFETY_TOKEN": world.tokens["mai"], "XDG_CONFIG_HOME": str(tmp_path)}
    said = console(["session", "start", "--network", "deps"], env)
    assert said.returncode != 0 and "untrusted" in said.stderr and "Traceback" not in said.stderr
    assert len(containers_of_any_session()) == sessions_before  # no container was made, nothing opened
    assert world.call("mai", "POST", "/v1/sessions", {"network": "anything"}).status_code == 422


def test_another_submitter_is_told_the_session_does_not_exist(world: World) -> None:
    session_id = world.open()
    try:
        assert_problem(world.call("other", "GET", f"/v1/sessions/{session_id}"), 404)
        assert_problem(world.cell(session_id, "print('in your session')", who="other"), 404)
        assert_problem(world.call("other", "DELETE", f"/v1/sessions/{session_id}"), 404)
        assert world.call("mai", "GET", f"/v1/sessions/{session_id}").json()["cells"] == []
    finally:
        world.call("mai", "DELETE", f"/v1/sessions/{session_id}")


def test_a_reverse_shell_split_across_cells_under_other_names_waits_for_a_person(world: World) -> None:
    session_id = world.open()
    try:
        world.ran(session_id, "import socket as s, os as o\n")
        world.ran(session_id, "c = s.socket(s.AF_INET, s.SOCK_STREAM)\ntry:\n    c.connect(('127.0.0.1', 9))\nexcept OSError:\n    pass\n")
        dup = world.ran(session_id, "for fd in (0, 1, 2):\n    o.dup2(c.fileno(), fd)\n")
        assert dup["level"] in ("HIGH", "BLOCKED") and dup["status"] == "awaiting_override", dup
        assert any(finding["line"] == 2 for finding in dup["findings"])  # at the cell's own line
        # The session waits with its cell: the next part of the shell is refused.
        refused = assert_problem(world.cell(session_id, "import subprocess as sp\nsp.call(['/bin/sh', '-i'])\n"), 409)
        assert dup["execution_id"] in refused["detail"]
        assert world.call("mai", "GET", f"/v1/sessions/{session_id}").json()["status"] == "waiting"
        # A person says no: the cell never ran, and the session takes cells again.
        denied = world.call("sec", "POST", f"/v1/executions/{dup['execution_id']}/deny", {"reason": "a reverse shell"})
        assert denied.status_code == 200 and denied.json()["status"] == "rejected", denied.text
        assert world.ran(session_id, "print('still here')")["stdout"] == "still here\n"
    finally:
        world.call("mai", "DELETE", f"/v1/sessions/{session_id}")


def test_a_name_bound_in_an_earlier_cell_resolves_in_a_later_one(world: World) -> None:
    session_id = world.open()
    try:
        world.ran(session_id, "import os as w\n")
        later = world.ran(session_id, "w.system('true')\n")
        # Alone, ``w`` is nobody; with cell 1 it is os, and this is a command execution.
        assert later["level"] != "LOW" and any(finding["rule_id"] == "command-exec" for finding in later["findings"]), later
    finally:
        world.call("mai", "DELETE", f"/v1/sessions/{session_id}")


def test_a_cell_that_kills_its_interpreter_is_recorded_and_a_new_one_keeps_the_files(world: World) -> None:
    session_id = world.open()
    try:
        world.ran(session_id, "y = 1\nopen('left.txt', 'w').close()\n")
        killed = world.ran(session_id, "import signal\nsignal.raise_signal(signal.SIGKILL)\n")
        assert killed["status"] == "terminated" and killed["termination_reason"] == "interpreter_crashed", killed
        after = world.ran(session_id, "import os\nprint(os.path.exists('left.txt'), 'y' in globals())")
        assert after["stdout"] == "True False\n"  # the files are kept, the variables are gone
        described = world.call("mai", "GET", f"/v1/sessions/{session_id}").json()
        assert [each["execution_id"] for each in described["restarts"]] == [killed["execution_id"]]
    finally:
        world.call("mai", "DELETE", f"/v1/sessions/{session_id}")


def test_a_cell_past_its_wall_clock_or_its_cpu_time_is_stopped_and_the_session_goes_on(world: World) -> None:
    session_id = world.open(cell_timeout_s=2)
    busy = world.open(cell_cpu_s=1)
    try:
        world.ran(session_id, "kept = 'state'")
        late = world.ran(session_id, "import time\nprint('started', flush=True)\nwhile True:\n    time.sleep(0.1)\n")
        assert late["status"] == "terminated" and late["termination_reason"] == "timeout", late
        # Interrupted in its interpreter, as a notebook's interrupt: its output so far and the state are kept.
        assert late["stdout"] == "started\n" and "WallClockReached" in late["stderr"], late
        assert world.ran(session_id, "print(kept)")["stdout"] == "state\n"
        # A cell that swallows the interrupt meets the service's own clock: its interpreter is ended.
        stubborn = world.ran(session_id, "import time\nwhile True:\n    try:\n        time.sleep(0.1)\n    except BaseException:\n        pass\n")
        assert (stubborn["status"], stubborn["termination_reason"]) == ("terminated", "timeout"), stubborn
        assert "interpreter was ended" in stubborn["detail"], stubborn["detail"]
        assert world.ran(session_id, "print('next')")["stdout"] == "next\n"
        assert "kept" in world.cell(session_id, "print(kept)").json()["stderr"]  # a new interpreter: NameError
        spinning = world.ran(busy, "while True:\n    pass\n")
        assert spinning["status"] == "terminated" and "CPU time" in spinning["detail"], spinning
        assert world.ran(busy, "print('next')")["stdout"] == "next\n"
    finally:
        world.call("mai", "DELETE", f"/v1/sessions/{session_id}")
        world.call("mai", "DELETE", f"/v1/sessions/{busy}")


def test_a_cell_flooding_its_output_is_cut_at_the_bound_and_neither_the_service_nor_the_session_drowns(world: World) -> None:
    session_id = world.open(cell_timeout_s=3)
    service = psutil.Process(world.server.process.pid)
    before = service.memory_info().rss
    try:
        endless = world.ran(session_id, "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n    sys.stderr.write('y' * 65536)\n")
        # Ended by its wall clock, not by its output filling the session's /tmp (which crashed the interpreter).
        assert (endless["status"], endless["termination_reason"]) == ("terminated", "timeout"), endless["detail"]
        assert endless["output_truncated"] is True and len(endless["stdout"]) == 1 << 20
        large = world.ran(session_id, "import sys\nfor _ in range(64):\n    sys.stdout.write('x' * 65536)\n    sys.stderr.write('y' * 65536)\nprint('end')\n")
        assert large["status"] == "completed" and large["output_truncated"] is True, large["detail"]
        assert len(large["stdout"]) == len(large["stderr"]) == 1 << 20  # the untrusted profile's output bound (1 MiB) each
        assert service.memory_info().rss - before < 64 << 20  # 8 MiB written, and the service kept what it showed
        assert world.ran(session_id, "print('after')")["stdout"] == "after\n"
    finally:
        world.call("mai", "DELETE", f"/v1/sessions/{session_id}")


def test_past_the_sessions_a_principal_may_hold_the_answer_is_429(world: World) -> None:
    opened = [world.open("other") for _ in range(PER_PRINCIPAL)]  # the policy's number, not the shipped one
    try:
        assert_problem(world.call("other", "POST", "/v1/sessions"), 429)
    finally:
        for session_id in opened:
            world.call("other", "DELETE", f"/v1/sessions/{session_id}")


def test_a_session_gets_no_more_than_the_policy_grants_and_its_last_cell_is_its_last(world: World) -> None:
    asked_more = world.open(max_cells=MAX_CELLS * 10, idle_s=86_400)
    two = world.open(max_cells=2)
    try:
        granted = world.call("mai", "GET", f"/v1/sessions/{asked_more}").json()["session_limits"]
        assert granted["max_cells"] == MAX_CELLS and granted["idle_s"] == 300, granted  # limits.yaml's, not the ask
        world.ran(two, "a = 1")
        assert world.ran(two, "print(a + 1)")["stdout"] == "2\n"
        assert_problem(world.cell(two, "print(a)"), 409)
        ended = world.call("mai", "GET", f"/v1/sessions/{two}").json()  # its last cell ended it, recorded
        assert ended["status"] == "ended" and ended["ended_reason"] == "limit" and "2 cells" in ended["ended_detail"], ended
        assert containers_of(two) == []
    finally:
        world.call("mai", "DELETE", f"/v1/sessions/{asked_more}")
        world.call("mai", "DELETE", f"/v1/sessions/{two}")


def test_a_session_past_its_total_cpu_time_is_ended_recorded_as_read_from_its_cgroup(world: World) -> None:
    session_id = world.open(total_cpu_s=1, cell_cpu_s=5)
    spin = world.cell(session_id, "import time\nstarted = time.process_time()\nwhile time.process_time() - started < 3:\n    pass\n")
    assert spin.status_code == 200, spin.text
    described = world.call("mai", "GET", f"/v1/sessions/{session_id}").json()
    assert described["status"] == "ended" and described["ended_reason"] == "limit", described
    assert "s of CPU, the session's total is 1 s" in described["ended_detail"], described
    assert containers_of(session_id) == []
    assert_problem(world.cell(session_id, "print(1)"), 409)


def test_after_delete_a_cell_is_refused_and_the_container_is_gone(world: World) -> None:
    session_id = world.open()
    world.ran(session_id, "z = 1")
    ended = world.call("mai", "DELETE", f"/v1/sessions/{session_id}")
    assert ended.status_code == 200 and ended.json()["status"] == "ended" and ended.json()["ended_reason"] == "caller"
    assert_problem(world.cell(session_id, "print(z)"), 409)
    assert containers_of(session_id) == []


def test_an_idle_session_is_ended_by_the_sweep_recorded(world: World) -> None:
    session_id = world.open(idle_s=1)
    deadline = time.monotonic() + 60
    described = world.call("mai", "GET", f"/v1/sessions/{session_id}").json()
    while described["status"] != "ended" and time.monotonic() < deadline:
        time.sleep(0.5)
        described = world.call("mai", "GET", f"/v1/sessions/{session_id}").json()
    assert described["status"] == "ended" and described["ended_reason"] == "idle", described
    while containers_of(session_id) and time.monotonic() < deadline:
        time.sleep(0.2)  # the end is recorded first, then the container removed
    assert containers_of(session_id) == []
    assert_problem(world.cell(session_id, "print(1)"), 409)


def test_a_session_past_its_lifetime_is_ended_recorded_even_while_it_is_busy(world: World) -> None:
    session_id = world.open(lifetime_s=3)
    deadline = time.monotonic() + 60
    described = world.call("mai", "GET", f"/v1/sessions/{session_id}").json()
    while described["status"] != "ended" and time.monotonic() < deadline:
        world.cell(session_id, "x = 1")  # never idle: only the lifetime ends it
        time.sleep(0.3)
        described = world.call("mai", "GET", f"/v1/sessions/{session_id}").json()
    assert described["status"] == "ended" and described["ended_reason"] == "lifetime", described
    while containers_of(session_id) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert containers_of(session_id) == []
    assert_problem(world.cell(session_id, "print(1)"), 409)


def test_a_stopped_service_ends_its_sessions_recorded(tmp_path: Path) -> None:
    policies = policies_with(tmp_path)
    database_url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, {"mai": ["submitter"]})
    with running_server(tmp_path, database_url, policies) as server:
        with server.client(tokens["mai"]) as client:
            session_id = client.post("/v1/sessions").json()["session_id"]
        assert server.stop() == 0  # SIGTERM
    assert containers_of(session_id) == []
    with running_server(tmp_path, database_url, policies) as server, server.client(tokens["mai"]) as client:
        described = client.get(f"/v1/sessions/{session_id}").json()
        assert described["status"] == "ended" and described["ended_reason"] == "service_stop", described


def test_a_killed_service_leaves_no_session_open_nor_its_container(tmp_path: Path) -> None:
    policies = policies_with(tmp_path)
    database_url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, {"mai": ["submitter"]})
    with running_server(tmp_path, database_url, policies) as server:
        with server.client(tokens["mai"]) as client:
            session_id = client.post("/v1/sessions").json()["session_id"]
            assert client.post(f"/v1/sessions/{session_id}/executions", json={"code": "a = 1"}).status_code == 200
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait()
    try:
        with running_server(tmp_path, database_url, policies) as server, server.client(tokens["mai"]) as client:
            described = client.get(f"/v1/sessions/{session_id}").json()
            assert described["status"] == "ended" and described["ended_reason"] == "recovery", described
            assert containers_of(session_id) == []
    finally:
        for container in containers_of(session_id):
            container.remove(force=True)


def test_the_client_the_cli_and_the_mcp_tools_each_keep_a_sessions_state(world: World, tmp_path: Path) -> None:
    with Client(world.server.url, token=world.tokens["mai"]) as client, client.session() as session:
        session.run("x = 41")
        assert session.run("print(x + 1)").stdout == "42\n"
        opened = session.session_id
    assert world.call("mai", "GET", f"/v1/sessions/{opened}").json()["ended_reason"] == "caller"

    # docs/sessions.md's three-step analysis, as written there.
    with Client(world.server.url, token=world.tokens["mai"]) as mai, mai.session() as session:
        session.run(
            "import csv\nrows = list(csv.DictReader(open('sales.csv')))",
            files={"sales.csv": b"region,amount\nnorth,10\nsouth,\nnorth,5\n"},
        )
        assert session.run("len(rows), rows[0]").stdout == "(3, {'region': 'north', 'amount': '10'})\n"
        cell = session.run(
            "clean = [r for r in rows if r['amount']]\n"
            "totals = {}\n"
            "for r in clean:\n    totals[r['region']] = totals.get(r['region'], 0) + int(r['amount'])\n"
            "open('totals.txt', 'w').write(repr(totals))\n"
            "print(totals)"
        )
        assert cell.stdout == "{'north': 15}\n"
        assert [item["name"] for item in session.describe()["workspace"]] == ["sales.csv", "totals.txt"]
        assert mai.download(cell.execution_id, "totals.txt") == b"{'north': 15}"

    env = {"MAI_SAFETY_URL": world.server.url, "MAI_SAFETY_TOKEN": world.tokens["mai"], "XDG_CONFIG_HOME": str(tmp_path)}
    started = console(["session", "start"], env)
    assert started.returncode == 0, started.stderr
    session_id = started.stdout.strip()
    cell = tmp_path / "cell.py"
    cell.write_text("y = 'kept'\n")
    assert console(["session", "run", session_id, str(cell)], env).returncode == 0
    shown = console(["session", "run", session_id, "-", "--json"], env, stdin=b"print(y)\n")
    assert shown.returncode == 0 and json.loads(shown.stdout)["stdout"] == "kept\n", shown.stderr
    ended = console(["session", "end", session_id], env)
    assert ended.returncode == 0 and "ended (caller)" in ended.stdout
    refused = console(["session", "run", session_id, "-"], env, stdin=b"print(y)\n")
    assert refused.returncode != 0 and "has ended" in refused.stderr and "Traceback" not in refused.stderr

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "mai_safety.infrastructure.cli.entry", "mcp"],
        env={**{key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}, **env},
    )

    async def calls() -> list[Any]:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as mcp:
            await mcp.initialize()
            opened = (await mcp.call_tool("start_session", {})).structuredContent
            assert opened is not None
            await mcp.call_tool("run_in_session", {"session_id": opened["session_id"], "code": "z = 6 * 7"})
            ran = await mcp.call_tool("run_in_session", {"session_id": opened["session_id"], "code": "z"})
            ended = await mcp.call_tool("end_session", {"session_id": opened["session_id"]})
            return [ran.structuredContent, ended.structuredContent]

    ran, ended_by_mcp = asyncio.run(calls())
    assert ran["stdout"] == "42\n" and ended_by_mcp["status"] == "ended"
