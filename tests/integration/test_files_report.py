"""A run's files where people read the record (issue #25's follow-up): the HTML audit report lists
them and shows a small PNG as a ``data:`` thumbnail (an SVG the code wrote is listed, never shown),
and ``history`` gives them a line each. One real run (Docker, runc) on SQLite, through the CLI as a
user types it."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

import docker

from .cli_helpers import run_cli, suite_policies

PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")
SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert("owned")</script></svg>'
#: The code leaves a PNG, an SVG holding a script, and a name with a right-to-left override.
LEAVES = f"""
import base64
open("chart.png", "wb").write(base64.b64decode({base64.b64encode(PNG).decode()!r}))
open("diagram.svg", "wb").write({SVG!r})
open("\\u202egnp.exe", "w").write("x")
print(len(open("data.csv").read()))
""".encode()


def test_the_report_shows_a_run_s_png_as_a_data_thumbnail_and_history_lists_its_files(tmp_path: Path, docker_client: docker.DockerClient) -> None:
    env = {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{tmp_path / 'ledger.sqlite'}", "MAI_SAFETY_ACTOR": "auditor", "MAI_SAFETY_POLICIES": str(suite_policies()),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state")}
    (tmp_path / "leaves.py").write_bytes(LEAVES)
    (tmp_path / "data.csv").write_bytes(b"a,b\n1,2\n")
    done = run_cli(["run", str(tmp_path / "leaves.py"), "--file", str(tmp_path / "data.csv"), "--json"], env)
    assert done.returncode == 0, done.stderr
    ran = json.loads(done.stdout)
    assert sorted(item["name"] for item in ran["files_out"]) == sorted(["chart.png", "diagram.svg", "\u202egnp.exe"])

    page_path = tmp_path / "report.html"
    reported = run_cli(["report", "--format", "html", "--output", str(page_path)], env)
    assert reported.returncode == 0, reported.stderr
    page = page_path.read_text(encoding="utf-8")
    assert f'src="data:image/png;base64,{base64.b64encode(PNG).decode()}"' in page
    for name, data in (("data.csv", b"a,b\n1,2\n"), ("chart.png", PNG), ("diagram.svg", SVG)):
        assert name in page and hashlib.sha256(data).hexdigest() in page
    assert "image/svg+xml;base64" not in page and "<script" not in page.lower()  # the SVG is listed only
    (policy,) = re.findall(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page)
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["img-src"] == "data:" and directives["default-src"] == "'none'" and "script-src" not in directives
    assert re.findall(r'<img src="([a-z]+:)', page) == ["data:"]  # one thumbnail, no other source
    assert "\u202e" not in page and "\\u202egnp.exe" in page  # the override shown, never applied

    history = run_cli(["history", ran["execution_id"]], env)
    assert history.returncode == 0, history.stderr
    lines = history.stdout.splitlines()
    assert any("file in" in line and "data.csv" in line for line in lines)
    assert any("file out" in line and "image/png" in line and f"sha256:{hashlib.sha256(PNG).hexdigest()[:12]}" in line and line.endswith("chart.png") for line in lines)
    assert "\u202e" not in history.stdout and any(line.endswith("\\u202egnp.exe") for line in lines)
