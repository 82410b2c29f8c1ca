"""The design documents' ``SafetyAPI`` by its own names, and every feature from every door, against
a real ``mai-safety serve`` (issue #30): the six methods answer (hello world through
``assess_and_execute``, HIGH through ``assess_code_only``); the typed clients' new calls; ``run
--revises`` through the thin client records a diff that ``history`` shows; ``policy
show|validate|apply`` against the service; MCP's read-only status tool and ``revises``."""

from __future__ import annotations

import asyncio
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import docker
import pytest

from mai_safety.client import AsyncSafetyAPI, Client, InvalidRequest, NotPermitted, SafetyAPI

from .cli_helpers import STARTED_PIDS, policies_with
from .service_helpers import Server, grant_tokens, running_server
from .test_mcp import mcp_server, session_calls

HELLO = "print('hello from the sandbox')\n"
HIGH = 'import subprocess\ntry:\n    subprocess.run(["sudo", "true"])\nexcept OSError:\n    pass\n'
PRINCIPALS = {"mai": ["submitter"], "operator": ["admin"], "audit": ["auditor"]}
ENTRY = [sys.executable, "-m", "mai_safety.infrastructure.cli.entry"]


@dataclass
class World:
    server: Server
    tokens: dict[str, str]
    tmp: Path
    policies: Path

    def cli(self, who: str, *args: str) -> subprocess.CompletedProcess[str]:
        """``mai-safety ARGS`` with MAI_SAFETY_URL set and ``who``'s token: the thin client."""
        env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
        env.update({"MAI_SAFETY_URL": self.server.url, "MAI_SAFETY_TOKEN": self.tokens[who], "XDG_CONFIG_HOME": str(self.tmp / "none")})
        with subprocess.Popen([*ENTRY, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
            STARTED_PIDS.add(process.pid)
            stdout, stderr = process.communicate(timeout=180)
        assert "Traceback" not in stderr, stderr
        return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("safety-api")
    policies = policies_with(tmp)
    database_url = f"sqlite:///{tmp / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, PRINCIPALS)
    with running_server(tmp, database_url, policies) as server:
        yield World(server, tokens, tmp, policies)


def test_the_six_names_answer_against_a_real_service(world: World, docker_client: docker.DockerClient) -> None:
    with SafetyAPI(world.server.url, token=world.tokens["mai"]) as safety:
        hello = safety.assess_and_execute(HELLO, task_id="task-30")
        assert (hello.status, hello.exit_code, hello.stdout) == ("completed", 0, "hello from the sandbox\n")
        assert safety.assess_code_only(HIGH).level == "HIGH"
        events = safety.get_execution_history(hello.execution_id)
        assert [event.event for event in events][0] == "Assessed" and events[-1].event == "Completed"  # type: ignore[union-attr]
        assert hello.execution_id in [row["execution_id"] for row in safety.get_execution_history(task="task-30")]  # type: ignore[index]
        assert safety.get_security_status().ok
    with SafetyAPI(world.server.url, token=world.tokens["operator"]) as operator:
        assert operator.configure_policies(world.policies, validate_only=True)["valid"] is True
        assert operator.configure_policies(world.policies)["version"] == 1
    with SafetyAPI(world.server.url, token=world.tokens["audit"]) as auditor:
        report = auditor.get_audit_report()
        assert report["executions"] >= 1 and report["ledger"] and report["by_level"].get("LOW", 0) >= 1

    async def the_same_awaited() -> tuple[str, bool]:
        async with AsyncSafetyAPI(world.server.url, token=world.tokens["mai"]) as safety:
            return (await safety.assess_code_only(HIGH)).level, (await safety.get_security_status()).ok

    assert asyncio.run(the_same_awaited()) == ("HIGH", True)

    # The answer says when, how much and what was attempted, without reading /events.
    submitted, started, ended = (datetime.fromisoformat(moment or "") for moment in (hello.submitted_at, hello.started_at, hello.ended_at))
    assert submitted <= started <= ended
    assert hello.usage.get("memory_peak_bytes", 0) > 0 and "cpu_seconds" in hello.usage
    assert hello.attempted.get("self_reported") is True and "counts" in hello.attempted


def test_the_typed_client_reads_the_stream_pending_report_export_and_policy(world: World, docker_client: docker.DockerClient) -> None:
    with Client(world.server.url, token=world.tokens["mai"]) as mai:
        done = mai.run(HELLO)
        kinds = [kind for kind, _ in mai.stream(done.execution_id)]
        assert kinds[0] == "state" and kinds[-1] == "end"
        assert mai.policy()["version"] >= 0
        with pytest.raises(NotPermitted):
            mai.apply_policy(world.policies)
    with Client(world.server.url, token=world.tokens["audit"]) as audit:
        assert audit.pending() == []
        assert audit.report(since="2000-01-01")["executions"] >= 1
        bundle = io.BytesIO()
        assert audit.export(bundle, execution=done.execution_id) == len(bundle.getvalue()) > 0
    with Client(world.server.url, token=world.tokens["operator"]) as operator:
        files = {path.relative_to(world.policies).as_posix(): path.read_text() for path in world.policies.rglob("*.yaml")}
        with pytest.raises(InvalidRequest) as refused:
            operator.validate_policy({**files, "limits.yaml": "nonsense: [\n"})
        assert "limits.yaml" in refused.value.detail


def test_run_revises_through_the_thin_client_records_a_diff_that_history_shows(world: World, docker_client: docker.DockerClient) -> None:
    first_file, second_file = world.tmp / "first.py", world.tmp / "second.py"
    first_file.write_text("print(1)\n")
    second_file.write_text("print(2)\n")
    first = world.cli("mai", "run", str(first_file), "--json")
    assert first.returncode == 0, first.stderr
    first_id = json.loads(first.stdout)["execution_id"]
    second = world.cli("mai", "run", str(second_file), "--revises", first_id, "--json")
    assert second.returncode == 0, second.stderr
    answer = json.loads(second.stdout)
    assert answer["submitted_at"] and answer["started_at"] and answer["ended_at"] and answer["usage"]  # --json carries them
    shown = world.cli("mai", "history", answer["execution_id"])
    assert shown.returncode == 0 and "      -print(1)" in shown.stdout and "      +print(2)" in shown.stdout, shown.stdout


def test_policy_show_validate_and_apply_go_to_the_service_with_an_admins_token(world: World) -> None:
    checked = world.cli("operator", "policy", "validate", str(world.policies))
    assert checked.returncode == 0 and "valid" in checked.stdout, checked.stderr
    applied = world.cli("operator", "policy", "apply", str(world.policies), "--json")
    assert applied.returncode == 0, applied.stderr
    version = json.loads(applied.stdout)["version"]
    shown = world.cli("mai", "policy", "show")
    assert shown.returncode == 0 and f"policy version {version}" in shown.stdout, shown.stdout

    broken = world.tmp / "broken"
    shutil.copytree(world.policies, broken)
    (broken / "limits.yaml").write_text("nonsense: [\n")
    refused = world.cli("operator", "policy", "validate", str(broken))
    assert refused.returncode == 2 and "limits.yaml" in refused.stderr and refused.stderr.count("\n") == 1, refused.stderr
    not_admin = world.cli("mai", "policy", "apply", str(world.policies))
    assert not_admin.returncode == 7, not_admin.stderr
    history = world.cli("operator", "policy", "show", "--history")
    assert history.returncode == 2 and "MAI_SAFETY_URL" in history.stderr


def test_mcp_lists_a_read_only_status_tool_and_run_code_takes_revises(world: World, docker_client: docker.DockerClient) -> None:
    calls = [("get_security_status", {}), ("run_code", {"code": "print(1)\n"})]
    tools, (status, first) = asyncio.run(session_calls(mcp_server(world.server, world.tokens["mai"]), calls))
    tool = next(tool for tool in tools if tool.name == "get_security_status")
    assert tool.annotations.readOnlyHint is True
    assert not status.isError and status.structuredContent and status.structuredContent["ok"] is True
    assert "revises" in next(tool for tool in tools if tool.name == "run_code").inputSchema["properties"]
    first_id = first.structuredContent["execution_id"]
    _, (second,) = asyncio.run(session_calls(mcp_server(world.server, world.tokens["mai"]), [("run_code", {"code": "print(2)\n", "revises": first_id})]))
    assert not second.isError
    with Client(world.server.url, token=world.tokens["audit"]) as audit:
        assessed = audit.events(second.structuredContent["execution_id"])[0]
        assert assessed.model_extra["revises"] == first_id and "+print(2)" in assessed.model_extra["code_diff"]
