"""Files in and out through the service, as a caller meets it (issue #25): a real uvicorn, a real
HTTP client, real Docker, a SQLite ledger of the test's own. A CSV goes in, a PNG comes out and
back through ``GET …/files/{name}`` as an attachment; a name that climbs out is a 422 naming the
field and records nothing; another submitter's files are 404."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from mai_safety.client import Client

from .cli_helpers import STARTED_PIDS, policies_with
from .service_helpers import Server, grant_tokens, running_server
from .test_files import CSV, TO_CHART

PROBLEM = "application/problem+json"


@dataclass
class World:
    server: Server
    tokens: dict[str, str]
    tmp: Path

    def call(self, who: str, method: str, path: str, body: Any = None) -> httpx.Response:
        with self.server.client(self.tokens[who]) as client:
            return client.request(method, path, json=body)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("files-service")
    # One pooled container for standard runs: files reach a run on a pool container too (its
    # runner started ahead, the inputs placed when the run takes it).
    policies = policies_with(tmp, limits={"files.max_input_bytes": "64k", "pool.sizes": {"standard": 1}})
    database_url = f"sqlite:///{tmp / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, {"mai": ["submitter"], "other": ["submitter"]})
    with running_server(tmp, database_url, policies, {}, ["--max-wait", "60"]) as server:
        yield World(server, tokens, tmp)


def _files(**named: bytes) -> list[dict[str, str]]:
    return [{"name": name, "content_base64": base64.b64encode(data).decode()} for name, data in named.items()]


def test_a_csv_goes_in_and_a_png_comes_back_as_an_attachment(world: World) -> None:
    answer = world.call("mai", "POST", "/v1/executions", {"code": TO_CHART.decode(), "files": _files(**{"data.csv": CSV})})
    assert answer.status_code == 200, answer.text
    report = answer.json()
    assert report["status"] == "completed" and "wettest: Bergen" in report["stdout"]
    assert report["files_in"][0]["sha256"] == hashlib.sha256(CSV).hexdigest()
    (chart,) = report["files_out"]
    listed = world.call("mai", "GET", f"/v1/executions/{report['execution_id']}/files").json()
    assert listed["files_out"] == [chart] and listed["files_in"] == report["files_in"]
    image = world.call("mai", "GET", f"/v1/executions/{report['execution_id']}/files/chart.png")
    assert image.status_code == 200
    assert image.headers["content-type"] == "image/png"
    assert image.headers["content-disposition"].startswith("attachment;")
    assert image.headers["x-content-type-options"] == "nosniff"
    assert hashlib.sha256(image.content).hexdigest() == chart["sha256"]
    # Another submitter sees neither the list nor the bytes; a name it did not leave is 404 too.
    for path in ("/files", "/files/chart.png"):
        assert world.call("other", "GET", f"/v1/executions/{report['execution_id']}{path}").status_code == 404
    assert world.call("mai", "GET", f"/v1/executions/{report['execution_id']}/files/data.csv").status_code == 404
    events = world.call("mai", "GET", f"/v1/executions/{report['execution_id']}/events").json()
    started = next(event for event in events if event["event"] == "Started")
    assert started["sizing"]["host"]["pooled"] is True  # the inputs reached a runner started ahead


def test_an_html_output_is_never_rendered_by_the_service(world: World) -> None:
    code = "open('page.html', 'w').write('<script>alert(1)</script>')\n"
    report = world.call("mai", "POST", "/v1/executions", {"code": code}).json()
    page = world.call("mai", "GET", f"/v1/executions/{report['execution_id']}/files/page.html")
    assert page.headers["content-disposition"].startswith("attachment;")
    assert "sandbox" in page.headers["content-security-policy"]


@pytest.mark.parametrize(
    ("files", "status", "field"),
    [
        (_files(**{"../x": b"x"}), 422, "files[0].name"),
        (_files(**{"/etc/x": b"x"}), 422, "files[0].name"),
        (_files(**{"ok": b"1", "a\x00b": b"x"}), 422, "files[1].name"),
        ([{"name": "x", "content_base64": "not base64!"}], 422, "files[0].content_base64"),
        (_files(**{"big.bin": b"\0" * (64 * 1024 + 1)}), 413, "files[0].content_base64"),
        ([{"name": f"f{number}", "content_base64": ""} for number in range(10_000)], 413, "files"),
    ],
)
def test_bad_files_are_refused_naming_the_field_and_nothing_is_recorded(world: World, files: list[dict[str, str]], status: int, field: str) -> None:
    before = world.call("mai", "GET", "/v1/executions").json()
    answer = world.call("mai", "POST", "/v1/executions", {"code": "print(1)\n", "files": files})
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == PROBLEM
    assert answer.json()["field"] == field
    assert world.call("mai", "GET", "/v1/executions").json() == before


def test_the_python_client_sends_files_and_downloads_the_outputs(world: World, tmp_path: Path) -> None:
    with Client(world.server.url, token=world.tokens["mai"]) as mai:
        execution = mai.run(TO_CHART.decode(), files={"data.csv": CSV})
        assert execution.status == "completed" and execution.files_in[0].name == "data.csv"
        (chart,) = execution.files_out
        assert chart.media_type == "image/png"
        data = mai.download(execution.execution_id, chart.name, tmp_path / "chart.png")
        assert hashlib.sha256(data).hexdigest() == chart.sha256 == hashlib.sha256((tmp_path / "chart.png").read_bytes()).hexdigest()
        with pytest.raises(FileExistsError):
            mai.download(execution.execution_id, chart.name, tmp_path / "chart.png")
        with pytest.raises(ValueError):
            mai.download(execution.execution_id, "../chart.png")


def test_the_cli_in_client_mode_sends_files_and_writes_the_outputs(world: World, tmp_path: Path) -> None:
    (tmp_path / "chart.py").write_bytes(TO_CHART)
    (tmp_path / "data.csv").write_bytes(CSV)
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    env.update({"MAI_SAFETY_URL": world.server.url, "MAI_SAFETY_TOKEN": world.tokens["mai"], "XDG_CONFIG_HOME": str(tmp_path / "none")})

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        with subprocess.Popen([sys.executable, "-m", "mai_safety.infrastructure.cli.entry", *args], env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
            STARTED_PIDS.add(process.pid)
            stdout, stderr = process.communicate(timeout=180)
        return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)

    done = cli("run", str(tmp_path / "chart.py"), "--file", str(tmp_path / "data.csv"), "--output-dir", str(tmp_path / "out"), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["files_in"][0]["name"] == "data.csv"
    assert hashlib.sha256((tmp_path / "out" / "chart.png").read_bytes()).hexdigest() == report["files_out"][0]["sha256"]
    refused = cli("run", str(tmp_path / "chart.py"), "--file", f"{tmp_path / 'data.csv'}:../x")
    assert refused.returncode == 2 and "files[0].name" not in refused.stderr and "(--file)" in refused.stderr
    assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr


def test_an_image_the_policy_does_not_name_is_refused_naming_the_field(world: World) -> None:
    answer = world.call("mai", "POST", "/v1/executions", {"code": "print(1)\n", "image": "gpu"})
    assert answer.status_code == 422 and answer.json()["field"] == "image", answer.text
    status = world.call("mai", "GET", "/v1/status").json()
    assert set(status["images"]) == {"default", "data"}
