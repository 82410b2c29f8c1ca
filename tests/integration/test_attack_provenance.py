"""Issue 23 (2), as the attack: a plain submitter token claims ``"provenance": "user"`` to earn the
trusted profile, over a real ``serve`` (HTTP) and through ``mai-safety mcp`` (which forwards the
claim). Provenance is a claim: only a token the operator granted it (``tokens create ...
--provenance user``, through the real CLI) gets what it earns."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from .cli_helpers import run_cli, suite_policies
from .service_helpers import Server, running_server
from .test_mcp import assert_tool_error, mcp_server, session_calls
from .test_service import assert_problem

HELLO = "print('hello from the sandbox')\n"


@dataclass
class Attack:
    server: Server
    tokens: dict[str, str]
    env: dict[str, str]  # the operator's, on the service's ledger


def _create_token(env: dict[str, str], name: str, *options: str) -> str:
    """A token as the operator makes one: the real CLI on the service's ledger."""
    created = run_cli(["tokens", "create", name, *options, "--json"], env)
    assert created.returncode == 0, created.stderr
    token: str = json.loads(created.stdout)["token"]
    return token


@pytest.fixture(scope="module")
def attack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Attack]:
    tmp = tmp_path_factory.mktemp("provenance")
    url, policies = f"sqlite:///{tmp / 'ledger.sqlite'}", suite_policies()
    env = {"MAI_SAFETY_DATABASE_URL": url, "MAI_SAFETY_POLICIES": str(policies)}
    tokens = {
        "mai": _create_token(env, "mai", "--role", "submitter"),
        "audit": _create_token(env, "audit", "--role", "auditor"),
    }
    with running_server(tmp, url, policies) as server:
        yield Attack(server, tokens, env)


def test_a_plain_submitter_token_claiming_the_users_provenance_is_refused_and_nothing_is_recorded(attack: Attack) -> None:
    with attack.server.client(attack.tokens["mai"]) as mai, attack.server.client(attack.tokens["audit"]) as audit:
        before = audit.get("/v1/audit/verify").json()["head_position"]
        for route in ("/v1/executions", "/v1/assessments"):
            refused = assert_problem(mai.post(route, json={"code": HELLO, "provenance": "user"}), 403)
            assert "provenance 'user'" in refused["detail"] and "--provenance" in refused["detail"]
        assert audit.get("/v1/audit/verify").json()["head_position"] == before  # nothing recorded
        # What the token was granted (mai, the default) and what earns less (external) still run.
        ran = mai.post("/v1/executions", json={"code": HELLO}).json()
        assert (ran["status"], ran["trust"]) == ("completed", "standard"), ran


def test_a_token_granted_the_users_provenance_gets_the_trusted_profile(attack: Attack) -> None:
    granted = _create_token(attack.env, "ide", "--role", "submitter", "--provenance", "user,mai")  # the service is running
    with attack.server.client(granted) as ide:
        ran = ide.post("/v1/executions", json={"code": HELLO, "provenance": "user"}).json()
        assert (ran["status"], ran["trust"], ran["stdout"]) == ("completed", "trusted", "hello from the sandbox\n"), ran
    with attack.server.client(attack.tokens["audit"]) as audit:
        (ide,) = [token for token in audit.get("/v1/tokens").json() if token["principal"] == "ide"]
        assert ide["provenances"] == ["user", "mai"]


def test_an_assistant_claiming_the_users_provenance_through_mcp_gets_a_tool_error(attack: Attack) -> None:
    _, (refused,) = asyncio.run(session_calls(mcp_server(attack.server, attack.tokens["mai"]), [("run_code", {"code": HELLO, "provenance": "user"})]))
    assert_tool_error(refused, "provenance 'user'")


def test_granting_a_provenance_that_does_not_exist_is_refused_in_one_line(tmp_path: Path) -> None:
    env = {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{tmp_path / 'ledger.sqlite'}"}
    refused = run_cli(["tokens", "create", "ide", "--role", "submitter", "--provenance", "user,root"], env)
    assert refused.returncode == 2 and "--provenance 'root' is not a provenance" in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr
    assert json.loads(run_cli(["tokens", "list", "--json"], env).stdout) == []
