"""Code hidden by its declared encoding (issue 23, item 6). Python reads a program by the
encoding its first two lines declare (PEP 263): under ``# coding: utf-7`` the ``+AAo-`` inside a
comment is a new line, so a "comment" runs. The analyzers read UTF-8. Every door refuses a
declaration under which Python would read other text than the UTF-8 that is assessed; a
declaration that gives the same text (latin-1 on an ASCII program) is kept; and the runner runs
the UTF-8 text whatever the file declares (docs/decisions/0031)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import docker
import pytest
from mcp import StdioServerParameters

from mai_safety.client import Client, ProblemError
from mai_safety.infrastructure.sandbox import payload

from .cli_helpers import policies_with, run_cli
from .service_helpers import Server, grant_tokens, running_server
from .test_mcp import assert_tool_error, session_calls

# What the analyzers saw as a comment line, and what CPython runs under the declaration.
HIDDEN = b'# coding: utf-7\nprint("harmless")\n# +AAo-import os; os.system("echo pwned > /tmp/pwned")\n'
ASCII_LATIN1 = b"# -*- coding: latin-1 -*-\nprint('plain ascii')\n"


def _assert_refused_on_the_command_line(result: subprocess.CompletedProcess[str], ledger: Path) -> None:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "'utf-7'" in lines[0] and "coding line" in lines[0], result.stderr
    if ledger.exists():  # `run` opens the ledger before it reads the code: nothing may be in it
        with sqlite3.connect(ledger) as database:
            assert database.execute("SELECT count(*) FROM stored_events").fetchone()[0] == 0


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{tmp_path / 'ledger.sqlite'}", "MAI_SAFETY_ACTOR": "tester"}


@pytest.mark.parametrize("command", ["run", "assess"])
def test_a_utf7_declaration_hiding_a_line_is_refused_from_a_file(tmp_path: Path, env: dict[str, str], command: str) -> None:
    program = tmp_path / "hidden.py"
    program.write_bytes(HIDDEN)
    _assert_refused_on_the_command_line(run_cli([command, str(program)], env), tmp_path / "ledger.sqlite")


def test_a_utf7_declaration_hiding_a_line_is_refused_from_standard_input(tmp_path: Path, env: dict[str, str]) -> None:
    _assert_refused_on_the_command_line(run_cli(["run", "-"], env, stdin=HIDDEN), tmp_path / "ledger.sqlite")


def test_a_latin1_declaration_on_an_ascii_program_runs_as_written(tmp_path: Path, env: dict[str, str], docker_client: docker.DockerClient) -> None:
    program = tmp_path / "latin1.py"
    program.write_bytes(ASCII_LATIN1)
    result = run_cli(["run", str(program)], env)
    assert result.returncode == 0, result.stderr
    assert "plain ascii" in result.stdout


def test_the_runner_runs_the_utf8_text_whatever_the_file_declares(tmp_path: Path, docker_client: docker.DockerClient) -> None:
    """A program stored before the doors refused (or any that reaches the sandbox): the runner
    compiles the UTF-8 text, so the hidden line stays a comment."""
    folder = tmp_path / "sandbox"
    folder.mkdir()
    (folder / "runner.py").write_text(payload.source("runner.py"))
    (folder / "main.py").write_bytes(b'# coding: utf-7\nprint("visible")\n# +AAo-print("hidden line ran")\n')
    folder.chmod(0o755)
    output = docker_client.containers.run(
        "mai-safety/sandbox:1", ["python3", "-I", "/sandbox/runner.py"], remove=True, network_disabled=True,
        volumes={str(folder): {"bind": "/sandbox", "mode": "ro"}}, user="1000",
    ).decode()
    assert output.splitlines() == ["visible"], output


@dataclass
class World:
    server: Server
    token: str


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("encoding")
    policies = policies_with(tmp)
    database_url = f"sqlite:///{tmp / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, {"assistant": ["submitter"]})
    with running_server(tmp, database_url, policies) as server:
        yield World(server, tokens["assistant"])


@pytest.mark.parametrize("route", ["/v1/executions", "/v1/assessments"])
def test_a_utf7_declaration_hiding_a_line_is_refused_over_http(world: World, route: str) -> None:
    with world.server.client(world.token) as http:
        answer = http.post(route, json={"code": HIDDEN.decode()})
        assert answer.status_code == 422, answer.text
        assert answer.headers["content-type"].startswith("application/problem+json")
        assert "'utf-7'" in answer.json()["detail"]
        assert http.get("/v1/executions").json() == [], "nothing recorded"


def test_a_utf7_declaration_hiding_a_line_is_refused_by_the_python_client(world: World) -> None:
    with Client(world.server.url, token=world.token) as client, pytest.raises(ProblemError) as refused:
        client.run(HIDDEN.decode())
    assert refused.value.status == 422 and "'utf-7'" in refused.value.detail


def test_a_utf7_declaration_hiding_a_line_is_refused_over_mcp(world: World) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    env.update({"MAI_SAFETY_URL": world.server.url, "MAI_SAFETY_TOKEN": world.token})
    params = StdioServerParameters(command=sys.executable, args=["-m", "mai_safety.infrastructure.cli.entry", "mcp"], env=env)
    _, results = asyncio.run(session_calls(params, [("run_code", {"code": HIDDEN.decode()}), ("assess_code", {"code": HIDDEN.decode()})]))
    for result in results:
        assert_tool_error(result, "'utf-7'", "coding line")
