"""The CLI as a user runs it: one line on stderr for bad input, documented exit codes, no traceback,
and nothing written to the ledger when the input is refused."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import docker
import pytest

from .cli_helpers import gate_test_policies, policies_with, run_cli

def _run(args: list[str], env: dict[str, str], stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(args, env, stdin)


@pytest.fixture
def env(tmp_path: Path, database_url: str) -> dict[str, str]:
    return {"MAI_SAFETY_DATABASE_URL": database_url, "MAI_SAFETY_ACTOR": "tester"}


@pytest.fixture
def postgres_env(postgres_url: str, docker_client: docker.DockerClient) -> dict[str, str]:
    """For the runs: the whole path, containers included, once, on production's ledger (the
    ledger's contract has its own tests over both backends)."""
    return {"MAI_SAFETY_DATABASE_URL": postgres_url, "MAI_SAFETY_ACTOR": "tester"}


@pytest.fixture
def sqlite_env(tmp_path: Path) -> dict[str, str]:
    return {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{tmp_path / 'ledger.sqlite'}", "MAI_SAFETY_ACTOR": "tester"}


def _events_in(env: dict[str, str]) -> int:
    result = _run(["audit", "verify", "--json"], env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["checked"]


def _assert_one_clean_line(result: subprocess.CompletedProcess[str], code: int, words: str) -> None:
    assert result.returncode == code, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert words in lines[0]


def test_run_prints_the_assessment_the_output_and_the_execution_id(postgres_env: dict[str, str], tmp_path: Path) -> None:
    env = postgres_env
    program = tmp_path / "hello.py"
    program.write_text('print("hello, world")\n')
    result = _run(["run", str(program), "--json"], env)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    for key in ("execution_id", "level", "status", "exit_code", "stdout", "stderr", "termination_reason", "duration_s"):
        assert key in report
    assert report["status"] == "completed" and report["stdout"] == "hello, world\n"
    history = _run(["history", report["execution_id"], "--json"], env)
    assert [event["event"] for event in json.loads(history.stdout)] == ["Assessed", "Started", "Completed"]
    assert {event["actor"] for event in json.loads(history.stdout)} == {"tester"}
    human = _run(["run", "-"], env, stdin=b"print(6 * 7)\n")
    assert "level: LOW" in human.stdout and "42" in human.stdout and "execution: " in human.stdout
    verify = _run(["audit", "verify"], env)
    assert verify.returncode == 0 and "ledger intact: 6 events" in verify.stdout


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "does not exist"),
        ("DIR", "is a directory"),
        (b"", "is empty"),
        (b"print('\xff\xfe')\n", "not valid UTF-8"),
        (b"print(1)\x00\n", "NUL byte"),
        (b"x = 1\n" * 200_000, "over the limit"),
    ],
)
def test_bad_input_gets_one_clear_line_exit_2_and_nothing_recorded(
    sqlite_env: dict[str, str], tmp_path: Path, content: bytes | str | None, words: str
) -> None:
    target = tmp_path / "program.py"
    if content == "DIR":
        target.mkdir()
    elif content is not None:
        assert isinstance(content, bytes)
        target.write_bytes(content)
    _assert_one_clean_line(_run(["run", str(target)], sqlite_env), 2, words)
    assert _events_in(sqlite_env) == 0


def test_a_limit_above_the_policy_is_refused_with_exit_2(sqlite_env: dict[str, str]) -> None:
    result = _run(["run", "-", "--memory", "64g"], sqlite_env, stdin=b"print(1)\n")
    _assert_one_clean_line(result, 2, "above what the policy allows")
    _assert_one_clean_line(_run(["run", "-", "--timeout", "-1"], sqlite_env, stdin=b"print(1)\n"), 2, "more than zero")
    assert _events_in(sqlite_env) == 0


def test_an_unknown_setting_is_named_with_exit_6(sqlite_env: dict[str, str]) -> None:
    result = _run(["run", "-"], {**sqlite_env, "MAI_SAFETY_TIMEOUT": "5"}, stdin=b"print(1)\n")
    _assert_one_clean_line(result, 6, "unknown setting MAI_SAFETY_TIMEOUT")


def test_docker_not_answering_gets_exit_5_and_nothing_recorded(sqlite_env: dict[str, str], tmp_path: Path) -> None:
    result = _run(["run", "-"], {**sqlite_env, "DOCKER_HOST": f"unix://{tmp_path}/no-docker.sock"}, stdin=b"print(1)\n")
    _assert_one_clean_line(result, 5, "Docker does not answer")
    assert _events_in(sqlite_env) == 0


def test_the_database_not_answering_gets_exit_5() -> None:
    env = {"MAI_SAFETY_DATABASE_URL": "postgresql://mai:secret@127.0.0.1:9/none"}
    result = _run(["run", "-"], env, stdin=b"print(1)\n")
    _assert_one_clean_line(result, 5, "does not answer")
    assert "secret" not in result.stderr


def test_an_invalid_policy_file_names_the_file_and_key_with_exit_6(sqlite_env: dict[str, str], tmp_path: Path) -> None:
    policies = policies_with(tmp_path, limits={"profiles.trusted.pids": "many"})
    result = _run(["run", "-"], {**sqlite_env, "MAI_SAFETY_POLICIES": str(policies)}, stdin=b"print(1)\n")
    _assert_one_clean_line(result, 6, "limits.yaml: key profiles.trusted.pids")


def test_high_and_blocked_code_is_not_run_and_awaits_an_override(
    postgres_env: dict[str, str], tmp_path: Path, docker_client: docker.DockerClient
) -> None:
    env = {**postgres_env, "MAI_SAFETY_POLICIES": str(gate_test_policies(tmp_path))}
    marker = tmp_path / "ran"
    for code, level, kind in (
        (f"exec(open('{marker}').read())\n", "BLOCKED", "override"),
        ("x = eval(input())\n", "HIGH", "confirmation"),
    ):
        result = _run(["run", "-", "--json"], env, stdin=code.encode())
        assert result.returncode == 3, result.stderr
        report = json.loads(result.stdout)
        assert (report["level"], report["status"], report["override_kind"]) == (level, "awaiting_override", kind)
        history = json.loads(_run(["history", report["execution_id"], "--json"], env).stdout)
        assert [event["event"] for event in history] == ["Assessed", "OverrideRequested"]
        assert history[1]["kind"] == kind
        # No container for it (other checkouts' runs may share this Docker engine: look at its own).
        label = f"mai-safety.execution={report['execution_id']}"
        assert not docker_client.containers.list(all=True, filters={"label": label})


def test_audit_verify_finds_a_changed_event_and_names_its_position(sqlite_env: dict[str, str]) -> None:
    for text in ("print(1)\n", "print(2)\n"):
        assert _run(["run", "-"], sqlite_env, stdin=text.encode()).returncode == 0
    path = sqlite_env["MAI_SAFETY_DATABASE_URL"].removeprefix("sqlite:///")
    with sqlite3.connect(path) as connection:
        state = connection.execute("SELECT state FROM stored_events WHERE ledger_position = 4").fetchone()[0]
        connection.execute(
            "UPDATE stored_events SET state = ? WHERE ledger_position = 4", (state.replace(b"print(2)", b"print(3)"),)
        )
    result = _run(["audit", "verify", "--json"], sqlite_env)
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert not report["intact"]
    assert report["problems"][0].startswith("position 4:")
    assert "event hash mismatch" in report["problems"][0]
