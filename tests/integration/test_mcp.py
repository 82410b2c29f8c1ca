"""``mai-safety mcp`` driven over stdio by the MCP SDK's own client, against a real service with real
Docker: the tools and their schemas, hello world, BLOCKED code that an assistant cannot get run,
and errors that are MCP tool errors with a clear message, never a traceback."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import sys
from collections.abc import Iterator
from typing import Any

import docker
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, ImageContent, TextContent

from mai_safety.client import Client

from .service_helpers import ServedLedger, Server, served_ledger

HELLO = "print('hello from the sandbox')\n"
BLOCKED = 'import base64\nexec(base64.b64decode("cHJpbnQoMSk="))\n'
TOOLS = {"assess_code", "run_code", "get_execution", "list_recent_executions", "get_security_status",
         "start_session", "run_in_session", "end_session"}


World = ServedLedger


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    with served_ledger(tmp_path_factory.mktemp("mcp"), {"assistant": ["submitter"], "audit": ["auditor"]}) as served:
        yield served


def mcp_server(server: Server, token: str) -> StdioServerParameters:
    """The command an assistant's configuration names: `mai-safety mcp` with the URL and a token."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    env.update({"MAI_SAFETY_URL": server.url, "MAI_SAFETY_TOKEN": token})
    return StdioServerParameters(command=sys.executable, args=["-m", "mai_safety.infrastructure.cli.entry", "mcp"], env=env)


async def session_calls(params: StdioServerParameters, calls: list[tuple[str, dict[str, Any]]]) -> tuple[list[Any], list[CallToolResult]]:
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = (await session.list_tools()).tools
        results = [await session.call_tool(name, arguments) for name, arguments in calls]
        return tools, results


def text_of(result: CallToolResult) -> str:
    return " ".join(block.text for block in result.content if isinstance(block, TextContent))


def assert_tool_error(result: CallToolResult, *words: str) -> str:
    text = text_of(result)
    assert result.isError, text
    assert "Traceback" not in text and 'File "' not in text
    for word in words:
        assert word in text, text
    return text


def test_an_assistant_lists_the_tools_runs_code_and_cannot_get_blocked_code_run(world: World, docker_client: docker.DockerClient) -> None:
    calls = [
        ("assess_code", {"code": BLOCKED}),
        ("run_code", {"code": HELLO, "timeout_s": 20, "task_id": "task-1"}),
        ("run_code", {"code": BLOCKED}),
        ("list_recent_executions", {}),
        ("list_recent_executions", {"this_session_only": True}),
    ]
    tools, (assessed, hello, blocked, recent, this_session) = asyncio.run(session_calls(mcp_server(world.server, world.tokens["assistant"]), calls))

    assert {tool.name for tool in tools} == TOOLS  # and none that confirms, overrides or denies
    run_schema = next(tool for tool in tools if tool.name == "run_code").inputSchema
    assert run_schema["required"] == ["code"]
    assert {"timeout_s", "memory_mb", "cpus", "pids", "output_kb", "network", "requirements", "idempotency_key"} <= set(run_schema["properties"])
    assert run_schema["properties"]["network"]["enum"] == ["none", "deps"]

    assert not assessed.isError and assessed.structuredContent
    assert (assessed.structuredContent["level"], assessed.structuredContent["would_run"]) == ("BLOCKED", False)

    assert not hello.isError, text_of(hello)
    ran = hello.structuredContent
    assert ran and (ran["status"], ran["exit_code"], ran["stdout"]) == ("completed", 0, "hello from the sandbox\n")

    assert not blocked.isError, text_of(blocked)
    waiting = blocked.structuredContent
    assert waiting and (waiting["status"], waiting["awaiting_override"], waiting["level"]) == ("awaiting_override", True, "BLOCKED")
    assert waiting["findings"] and waiting["exit_code"] is None and waiting["stdout"] == ""
    assert "security-officer" in waiting["what_a_person_must_do"] and "not this assistant's" in waiting["what_a_person_must_do"]

    # The token's executions from the service's list, newest first; and this session's alone.
    listed = recent.structuredContent
    assert listed and [item["execution_id"] for item in listed["executions"]][:2] == [waiting["execution_id"], ran["execution_id"]]
    mine = this_session.structuredContent
    assert mine and [item["execution_id"] for item in mine["executions"]] == [waiting["execution_id"], ran["execution_id"]]
    assert "session" in mine["note"]

    with Client(world.server.url, token=world.tokens["audit"]) as audit:  # the ledger says the same
        events = [event.event for event in audit.events(waiting["execution_id"])]
        assert events == ["Assessed", "OverrideRequested"]
        hello_events = audit.events(ran["execution_id"])
        assert hello_events[0].actor == "assistant"
        assert str(hello_events[0].model_extra.get("caller", {}).get("session_id", "")).startswith("mcp-")


def test_bad_arguments_and_refusals_are_tool_errors_with_a_clear_message(world: World) -> None:
    calls = [
        ("run_code", {"code": HELLO, "timeout_s": -1}),
        ("run_code", {"cod": HELLO}),
        ("run_code", {"code": HELLO, "network": "everywhere"}),
        ("run_code", {"code": HELLO, "timeout_s": 3000}),  # within the schema, above the policy
        ("get_execution", {"execution_id": "00000000-0000-0000-0000-000000000000"}),
        ("confirm", {"execution_id": "00000000-0000-0000-0000-000000000000"}),
    ]
    _, results = asyncio.run(session_calls(mcp_server(world.server, world.tokens["assistant"]), calls))
    negative, missing, network, over_policy, unknown, no_such_tool = results
    assert_tool_error(negative, "invalid arguments for run_code: timeout_s: Input should be greater than 0")
    assert_tool_error(missing, "invalid arguments for run_code: code: Field required")
    assert_tool_error(network, "network: Input should be 'none' or 'deps'")
    assert "pydantic" not in text_of(negative)
    assert_tool_error(over_policy, "refused as invalid", "above what the policy allows")
    assert_tool_error(unknown, "no such execution")
    assert_tool_error(no_such_tool, "Unknown tool: confirm")


def test_a_wrong_token_is_a_tool_error_that_says_so(world: World) -> None:
    _, (result,) = asyncio.run(session_calls(mcp_server(world.server, "mst_not_a_real_token"), [("assess_code", {"code": HELLO})]))
    assert_tool_error(result, "token")


def test_without_a_token_the_server_does_not_start_and_says_why(world: World, tmp_path: Any) -> None:
    import subprocess

    env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    env.update({"MAI_SAFETY_URL": world.server.url, "XDG_CONFIG_HOME": str(tmp_path)})
    done = subprocess.run([sys.executable, "-m", "mai_safety.infrastructure.cli.entry", "mcp"], env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 6 and done.stdout == ""
    assert done.stderr.startswith("mai-safety: no token") and "Traceback" not in done.stderr
    assert json.dumps(done.stderr).count("\\n") == 1  # one line


def test_an_assistant_gives_a_csv_and_gets_its_chart_back_as_an_image(world: World, docker_client: docker.DockerClient) -> None:
    from .test_files import CSV, TO_CHART

    calls = [("run_code", {"code": TO_CHART.decode(), "files": {"data.csv": CSV.decode()}})]
    _, (charted,) = asyncio.run(session_calls(mcp_server(world.server, world.tokens["assistant"]), calls))
    assert not charted.isError, text_of(charted)
    ran = charted.structuredContent
    assert ran and ran["status"] == "completed" and "wettest: Bergen" in ran["stdout"]
    assert [item["name"] for item in ran["files_out"]] == ["chart.png"]
    (image,) = [block for block in charted.content if isinstance(block, ImageContent)]
    assert image.mimeType == "image/png" and base64.b64decode(image.data).startswith(b"\x89PNG")



def test_an_assistant_gives_a_small_binary_file_as_base64(world: World, docker_client: docker.DockerClient) -> None:
    import hashlib

    blob = bytes(range(256)) * 4  # not UTF-8: only binary_files can carry it
    read_back = "import hashlib\nprint(hashlib.sha256(open('in/blob.bin', 'rb').read()).hexdigest())\n"
    calls = [("run_code", {"code": read_back, "binary_files": {"in/blob.bin": base64.b64encode(blob).decode("ascii")}})]
    _, (ran,) = asyncio.run(session_calls(mcp_server(world.server, world.tokens["assistant"]), calls))
    assert not ran.isError, text_of(ran)
    assert ran.structuredContent and ran.structuredContent["stdout"].strip() == hashlib.sha256(blob).hexdigest()
    assert ran.structuredContent["files_out"] == []  # the input, unchanged, is not an output


def test_a_binary_file_that_is_not_base64_or_too_large_or_given_twice_is_a_tool_error(world: World) -> None:
    calls = [
        ("run_code", {"code": HELLO, "binary_files": {"blob.bin": "not base64!"}}),
        ("run_code", {"code": HELLO, "binary_files": {"blob.bin": "A" * (256 * 1024 + 4)}}),
        ("run_code", {"code": HELLO, "files": {"x.txt": "1"}, "binary_files": {"x.txt": "MQ=="}}),
    ]
    _, (bad, over, twice) = asyncio.run(session_calls(mcp_server(world.server, world.tokens["assistant"]), calls))
    assert_tool_error(bad, "binary_files['blob.bin'] is not base64")
    assert_tool_error(over, "invalid arguments for run_code", "binary_files")
    assert_tool_error(twice, "binary_files['x.txt'] is also in files")
