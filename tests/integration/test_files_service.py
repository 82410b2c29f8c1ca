"""Files in and out through the service, as a caller meets it (issue #25): a real uvicorn, a real
HTTP client, real Docker, a SQLite ledger of the test's own. A CSV goes in, a PNG comes out and
back through ``GET …/files/{name}`` as an attachment; a name that climbs out is a 422 naming the
field and records nothing; another submitter's files are 404."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from .cli_helpers import policies_with
from .service_helpers import Server, grant_tokens, running_server
from .test_files import CSV, TO_CHART

PROBLEM = "application/problem+json"


@dataclass
class World:
    server: Server
    tokens: dict[str, str]

    def call(self, who: str, method: str, path: str, body: Any = None) -> httpx.Response:
        with self.server.client(self.tokens[who]) as client:
            return client.request(method, path, json=body)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("files-service")
    policies = policies_with(tmp, limits={"files.max_input_bytes": "64k"})
    database_url = f"sqlite:///{tmp / 'ledger.sqlite'}"
    tokens = grant_tokens(database_url, policies, {"mai": ["submitter"], "other": ["submitter"]})
    with running_server(tmp, database_url, policies, {}, ["--max-wait", "60"]) as server:
        yield World(server, tokens)


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
