"""A bundle exported without the files' bytes (``audit export --without-file-bytes``, and the HTTP
export's ``without_file_bytes``): the runs' files stay named with their size and SHA-256 in the
signed events, their bytes are not written, the header says so, and ``audit verify --bundle``
checks everything else and says the bytes were left out (exit 0, a note; never silent). A bundle
that does not say so and lacks a file's bytes still fails. The run's outcome comes from a fake
sandbox (nothing here is about Docker); the CLI and the service are real."""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from mai_safety.application.ports import RunOutcome

from ..unit.fakes import FakeSandbox
from .cli_helpers import run_cli, suite_policies
from .ledger_helpers import make_app, service_environ
from .service_helpers import grant_tokens, running_server

CSV = b"city,rain_mm\nOslo,763\nBergen,2250\n"
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")
ELSEWHERE = {"MAI_SAFETY_DATABASE_URL": "postgresql://nobody:nothing@127.0.0.1:9/none"}  # no database needed


@dataclass
class Ledger:
    url: str
    environ: dict[str, str]
    execution_id: str


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    url = f"sqlite:///{tmp_path / 'data' / 'ledger.sqlite'}"
    app = make_app(url, tmp_path / "data", sandbox=FakeSandbox(RunOutcome(0, "charted\n", "", 8, False, 0.2, files_out=(("chart.png", PNG),))))
    try:
        report = app.run(b"print('charted')\n", files={"data.csv": CSV})
        assert report.status == "completed" and report.files_out, report
        app.audit.flush()
    finally:
        app.close()
    yield Ledger(url, {"MAI_SAFETY_DATABASE_URL": url, **service_environ(tmp_path / "data")}, report.execution_id)


def _blob_lines(bundle: Path) -> list[dict]:
    return [item for item in map(json.loads, bundle.read_text().splitlines()) if item["type"] == "blob"]


def test_a_bundle_without_the_files_bytes_names_them_and_verify_says_they_were_left_out(ledger: Ledger, tmp_path: Path) -> None:
    full, lean = tmp_path / "full.jsonl", tmp_path / "lean.jsonl"
    assert run_cli(["audit", "export", "--output", str(full)], ledger.environ).returncode == 0
    exported = run_cli(["audit", "export", "--without-file-bytes", "--output", str(lean)], ledger.environ)
    assert exported.returncode == 0, exported.stderr
    files = {hashlib.sha256(CSV).hexdigest(), hashlib.sha256(PNG).hexdigest()}
    assert files <= {item["sha256"] for item in _blob_lines(full)}
    assert not files & {item["sha256"] for item in _blob_lines(lean)}  # the bytes are not there
    header = json.loads(lean.read_text().splitlines()[0])
    assert header["file_bytes"] == "left_out" and "file_bytes" not in json.loads(full.read_text().splitlines()[0])
    states = b"".join(base64.b64decode(item["state"]) for item in map(json.loads, lean.read_text().splitlines()) if item["type"] == "event")
    assert all(sha256.encode() in states for sha256 in files)  # named, in the signed events

    checked = run_cli(["audit", "verify", "--bundle", str(lean), "--json"], ELSEWHERE)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    report = json.loads(checked.stdout)
    assert report["intact"] and report["complete"] and report["scope"]["file_bytes"] == "left_out"
    assert any("left out" in note and "2 input or output file(s)" in note for note in report["notes"])
    text = run_cli(["audit", "verify", "--bundle", str(lean)], ELSEWHERE)
    assert text.returncode == 0 and "bytes were left out" in text.stdout + text.stderr
    whole = json.loads(run_cli(["audit", "verify", "--bundle", str(full), "--json"], ELSEWHERE).stdout)
    assert "file_bytes" not in whole["scope"] and not any("left out" in note for note in whole["notes"])

    # A bundle that does not say so, and lacks a file's bytes, was cut: that still fails.
    png_line = next(line for line in full.read_text().splitlines() if f'"sha256":"{hashlib.sha256(PNG).hexdigest()}"' in line and '"type":"blob"' in line)
    cut = tmp_path / "cut.jsonl"
    cut.write_text(full.read_text().replace(png_line + "\n", ""))
    assert run_cli(["audit", "verify", "--bundle", str(cut), "--json"], ELSEWHERE).returncode == 1


def test_the_http_export_takes_without_file_bytes_and_declares_it(ledger: Ledger, tmp_path: Path) -> None:
    policies = suite_policies()
    tokens = grant_tokens(ledger.url, policies, {"audit": ["auditor"]})
    env = {key: value for key, value in ledger.environ.items() if key != "MAI_SAFETY_DATABASE_URL"}
    with running_server(tmp_path, ledger.url, policies, env) as server, server.client(tokens["audit"]) as client:
        parameters = client.get("/openapi.json").json()["paths"]["/v1/audit/export"]["get"]["parameters"]
        assert any(item["name"] == "without_file_bytes" and item["in"] == "query" for item in parameters)
        answer = client.get("/v1/audit/export", params={"without_file_bytes": "true"})
        assert answer.status_code == 200, answer.text
        remote = tmp_path / "remote.jsonl"  # the CLI in client mode passes the flag on, never drops it
        through = run_cli(["audit", "export", "--without-file-bytes", "--output", str(remote)],
                          {"MAI_SAFETY_URL": server.url, "MAI_SAFETY_TOKEN": tokens["audit"], "XDG_CONFIG_HOME": str(tmp_path / "client")})
        assert through.returncode == 0, through.stderr
        assert json.loads(remote.read_text().splitlines()[0])["file_bytes"] == "left_out"
    lean = tmp_path / "lean.jsonl"
    lean.write_text(answer.text)
    assert json.loads(answer.text.splitlines()[0])["file_bytes"] == "left_out"
    assert hashlib.sha256(PNG).hexdigest() not in {item["sha256"] for item in _blob_lines(lean)}
    checked = run_cli(["audit", "verify", "--bundle", str(lean), "--json"], ELSEWHERE)
    assert checked.returncode == 0 and json.loads(checked.stdout)["scope"]["file_bytes"] == "left_out", checked.stdout + checked.stderr
