"""The OpenAPI document is the service's contract (docs/decisions/0041): Schemathesis reads
``/openapi.json`` from a real ``mai-safety serve`` and sends what it allows, and some of what it
does not, with an admin's token and with a submitter's, about 20 examples an operation. The test
fails on a server error, a status or a content type the document does not declare, or a request
the document allows that the service refuses. Settings and the routes left out (those that run
code): tests/integration/schemathesis.toml."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .service_helpers import ServedLedger, served_ledger

CONFIG = Path(__file__).with_name("schemathesis.toml")
EXAMPLES_PER_OPERATION = 20


World = ServedLedger


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    with served_ledger(tmp_path_factory.mktemp("contract"), {"operator": ["admin"], "mai": ["submitter"]}) as served:
        yield served


def _schemathesis() -> list[str]:
    if importlib.util.find_spec("schemathesis") is None:
        pytest.fail("schemathesis is not installed: pip install -e '.[test]'")
    return [sys.executable, "-m", "schemathesis.cli"]


def _run_schemathesis(world: World, who: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            *_schemathesis(), "--config-file", str(CONFIG), "run", f"{world.server.url}/openapi.json",
            "-H", f"Authorization: Bearer {world.tokens[who]}", "--max-examples", str(EXAMPLES_PER_OPERATION),
            "--no-color", "--report-dir", str(world.tmp / f"schemathesis-{who}"),
        ],
        capture_output=True, text=True, timeout=300, cwd=world.tmp,
        env={key: value for key, value in os.environ.items() if not key.startswith("SCHEMATHESIS_")},
    )


@pytest.mark.parametrize("who", ["operator", "mai"])
def test_schemathesis_finds_no_failure_for_an_admin_or_a_submitter(world: World, who: str) -> None:
    result = _run_schemathesis(world, who)
    assert result.returncode == 0, result.stdout[-20000:] + result.stderr[-4000:]
    assert "Selected: 21/26" in result.stdout, result.stdout  # all but the five that run code (schemathesis.toml)


def test_every_problem_is_declared_as_problem_json(world: World) -> None:
    """Each operation says which problems it gives, with their media type; the shared ones on all."""
    document = httpx.get(f"{world.server.url}/openapi.json").json()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            statuses = {status for status in operation["responses"] if status.startswith(("4", "5"))}
            assert {"500", "503"} <= statuses, (method, path)
            for status in statuses:
                assert list(operation["responses"][status]["content"]) == ["application/problem+json"], (method, path, status)
    submit = document["paths"]["/v1/executions"]["post"]["responses"]
    assert {"400", "401", "403", "409", "413", "422", "429"} <= set(submit)


def test_the_schema_says_code_may_not_be_empty_and_how_large_it_may_be(world: World) -> None:
    document = httpx.get(f"{world.server.url}/openapi.json").json()
    schemas = document["components"]["schemas"]
    for name in ("AssessmentRequest", "ExecutionRequest"):
        code = schemas[name]["properties"]["code"]
        assert code["minLength"] == 1 and code["maxLength"] > 0 and "pattern" in code, name
    answer = httpx.post(
        f"{world.server.url}/v1/assessments", json={"code": " \n"}, headers={"Authorization": f"Bearer {world.tokens['mai']}"}
    )
    assert answer.status_code == 422 and answer.headers["content-type"] == "application/problem+json"
