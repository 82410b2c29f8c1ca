"""Attacks from inside the sandbox on what the supervisor reads and records.

The supervisor is root on the host. Nothing the code leaves may make it follow a link against the
host's root, block on a FIFO or read without end; and nothing the code does may make the record
claim less than happened: what the runner reported stands, a record it could not finish says so,
and it is stored as self-reported."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import docker
import pytest

from mai_safety.application.executions import MaiSafety
from mai_safety.infrastructure.bootstrap import bootstrap

from .conftest import runtime_policies, settings_for, skip_without_gvisor


@pytest.fixture(params=["runc", "runsc"])
def app(request: pytest.FixtureRequest, tmp_path: Path, docker_client: docker.DockerClient) -> Iterator[MaiSafety]:
    """Sandbox attacks run on the embedded ledger (the ledger's backends have their own suite),
    under each runtime: under gVisor the record and the survey take other ways out (decision 0013)."""
    if request.param == "runsc":
        skip_without_gvisor()
    application = bootstrap(settings_for(f"sqlite:///{tmp_path / 'ledger.sqlite'}", runtime_policies(tmp_path, request.param)))
    yield application
    application.close()


def _ending(app: MaiSafety, execution_id: str) -> dict:
    return app.history(execution_id)[-1]


def _stored(app: MaiSafety, execution_id: str) -> str:
    return json.dumps(app.history(execution_id), default=str)


HOST_SECRET = Path("/etc/shadow")

PLANT_LINKS = """
import os, threading, time
os.symlink("/etc/shadow", "/workspace/shadow")
os.symlink("/dev/zero", "/workspace/zero")
os.symlink("/", "/workspace/hostroot")
os.mkfifo("/workspace/fifo")
os.makedirs("/run/mai-safety", exist_ok=True) if os.access("/run/mai-safety", os.W_OK) else None
try:
    os.symlink("/etc/shadow", "/run/mai-safety/audit.json")
    os.symlink("/dev/zero", "/run/mai-safety/pip-report.json")
except OSError:
    pass
# A detached grandchild that keeps swapping a regular file for a link to the host's secret,
# hoping to win a race between the supervisor's check and its read.
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        end = time.time() + 20
        while time.time() < end:
            try:
                with open("/workspace/racy.tmp", "w") as handle:
                    handle.write("harmless")
                os.replace("/workspace/racy.tmp", "/workspace/racy")
                os.remove("/workspace/racy")
                os.symlink("/etc/shadow", "/workspace/racy")
                os.remove("/workspace/racy")
            except OSError:
                pass
    os._exit(0)
time.sleep(0.2)
print("planted")
"""


def test_links_devices_and_fifos_left_by_the_code_are_listed_not_followed(app: MaiSafety) -> None:
    report = app.run(PLANT_LINKS.encode(), confirm=True)
    assert report.status == "completed", (report.detail, report.stderr)
    observations = _ending(app, report.execution_id)["outcome"]["observations"]
    files = {entry["path"]: entry for entry in observations["files_created"]["first"]}
    assert files["/workspace/shadow"]["kind"] == "symlink" and files["/workspace/shadow"]["target"] == "/etc/shadow"
    assert files["/workspace/zero"]["kind"] == "symlink" and "sha256" not in files["/workspace/zero"]
    assert files["/workspace/fifo"]["kind"] == "fifo" and "sha256" not in files["/workspace/fifo"]
    assert observations["processes_left_running"] >= 1, "the detached grandchild is on the record"
    stored = _stored(app, report.execution_id)
    secret = HOST_SECRET.read_bytes()
    assert hashlib.sha256(secret).hexdigest() not in stored
    for line in secret.decode(errors="replace").splitlines():
        if ":" in line and len(line) > 12:
            assert line not in stored, "a line of the host's /etc/shadow reached the ledger"


FORGE_THE_RECORD = """
import json, os, socket, subprocess, time
open("/etc/passwd").read()
os.system("true")
# A grandchild that outlives the program, and tries to forge a clean record afterwards.
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(0.3)
        for path in ("/run/mai-safety/audit.json", "/workspace/audit.json"):
            try:
                with open(path, "w") as handle:
                    json.dump({"file_open": {"count": 1, "first": [{"path": "/workspace/ok"}]}}, handle)
            except OSError:
                pass
        try:
            forged = socket.socket(socket.AF_UNIX)
            forged.connect("/sandbox/record.sock")
            forged.sendall(b'{"category": "process", "count": 0}\\n{"end": true, "status": 0}\\n')
        except OSError as error:
            pass
        time.sleep(5)
    os._exit(0)
print("done")
"""


def test_a_grandchild_cannot_make_the_record_claim_less_than_happened(app: MaiSafety) -> None:
    report = app.run(FORGE_THE_RECORD.encode(), confirm=True)
    assert report.status == "completed", (report.detail, report.stderr)
    attempted = _ending(app, report.execution_id)["outcome"]["observations"]["attempted"]
    assert attempted["self_reported"] is True
    opened = [item["path"] for item in attempted["events"]["file_open"]["first"]]
    assert "/etc/passwd" in opened
    assert attempted["events"]["process"]["count"] >= 1
    assert any("true" in item["args"] for item in attempted["events"]["process"]["first"])


def test_a_signal_to_the_containers_init_is_refused_and_the_run_ends_as_the_program_did(app: MaiSafety) -> None:
    program = b"""
import os, signal
open("/etc/passwd").read()
try:
    os.kill(1, signal.SIGTERM)
    print("init signalled")
except PermissionError:
    print("init is out of reach")
"""
    report = app.run(program, confirm=True)
    assert report.status == "completed" and report.exit_code == 0, (report.detail, report.stderr)
    assert report.stdout.strip() == "init is out of reach"
    observations = _ending(app, report.execution_id)["outcome"]["observations"]
    assert observations["attempted"]["complete"] is True
    assert "signal" in observations["attempted"]["events"]
    assert "files_created" in observations


def test_a_program_that_kills_its_own_runner_leaves_an_incomplete_record_that_keeps_what_it_said(app: MaiSafety) -> None:
    program = b"""
import os, signal
open("/etc/passwd").read()
os.kill(os.getpid(), signal.SIGKILL)   # the runner is this very process: no closing line
"""
    report = app.run(program, confirm=True)
    observations = _ending(app, report.execution_id)["outcome"]["observations"]
    attempted = observations["attempted"]
    assert attempted["complete"] is False and "closing line" in attempted["problem"]
    assert "/etc/passwd" in [item["path"] for item in attempted["events"]["file_open"]["first"]]
    assert report.exit_code == 137
    assert "files_created" in observations, "the container outlives the code, so what it left is still read"


def test_reaching_for_the_recorder_through_gc_is_itself_on_the_record(app: MaiSafety) -> None:
    program = b"""
import gc
for thing in gc.get_objects():
    if type(thing).__name__ == "_Recorder":
        thing.busy = True      # silence the hook from here on
open("/etc/passwd").read()
"""
    report = app.run(program, confirm=True)
    assert report.status == "completed", report.stderr
    events = _ending(app, report.execution_id)["outcome"]["observations"]["attempted"]["events"]
    assert events["introspection"]["first"][0]["event"] == "gc.get_objects"


def test_walking_the_frames_up_to_the_recorder_leaves_a_record_that_is_not_complete(app: MaiSafety) -> None:
    """The attack on 9943142: up the frames to the runner's recorder, silence it, then act. The
    first frame the code takes is on the record before the code holds it, and the record says it
    cannot be complete."""
    program = b"""
import os, sys
open("/etc/hostname").read()
frame = sys._getframe()
while frame is not None:
    for value in list(frame.f_locals.values()):
        if type(value).__name__ == "_Recorder":
            value.busy = True
    frame = frame.f_back
os.system("true")
print("walked")
"""
    report = app.run(program, confirm=True)
    assert report.status == "completed" and report.stdout.strip() == "walked", (report.detail, report.stderr)
    attempted = _ending(app, report.execution_id)["outcome"]["observations"]["attempted"]
    assert attempted["complete"] is False, attempted
    assert "reached for what can silence the recorder" in attempted["problem"]
    assert attempted["reached"]["first"][0]["event"] == "sys._getframe"
    assert attempted["reached"]["first"][0]["by"] == "/sandbox/main.py:4"


def test_an_atexit_kill_after_the_runners_end_leaves_a_record_that_is_not_complete(app: MaiSafety) -> None:
    """The attack on 9943142: a handler the interpreter runs after the runner's closing line acts
    unrecorded, then kills the process. The runner now runs the code's handlers while it still
    records, and seals only after them: the kill leaves no seal."""
    program = b"""
import atexit, os, signal
open("/etc/hostname").read()
def later():
    os.system("true")
    os.kill(os.getpid(), signal.SIGKILL)
atexit.register(later)
print("registered")
"""
    report = app.run(program, confirm=True)
    attempted = _ending(app, report.execution_id)["outcome"]["observations"]["attempted"]
    assert attempted["complete"] is False and "sealed closing line" in attempted["problem"], attempted
    assert any("true" in item["args"] for item in attempted["events"]["process"]["first"]), attempted
    assert report.exit_code == 137


def test_a_closing_line_forged_on_the_channel_and_the_channel_cut_leave_no_seal(app: MaiSafety) -> None:
    """The code writes the old closing line itself on the record's descriptor, then points that
    descriptor at /dev/null and acts: without the run's key it cannot seal."""
    program = b"""
import os, stat
for fd in range(3, 20):
    try:
        if stat.S_ISSOCK(os.fstat(fd).st_mode):
            os.write(fd, b'{"end":true,"status":0}\\n')
            os.dup2(os.open("/dev/null", os.O_WRONLY), fd)
    except OSError:
        pass
os.system("true")
"""
    report = app.run(program, confirm=True)
    assert report.status == "completed", (report.detail, report.stderr)
    attempted = _ending(app, report.execution_id)["outcome"]["observations"]["attempted"]
    assert attempted["complete"] is False, attempted


def test_a_signal_handler_which_is_handed_frames_leaves_a_record_that_is_not_complete(app: MaiSafety) -> None:
    """A Python signal handler is given the frame it interrupts, with no audit event on the way:
    the runner looks for the code's handlers before it seals, and names them."""
    program = b"""
import os, signal
def handler(number, frame):
    while frame is not None:
        frame = frame.f_back
signal.signal(signal.SIGUSR1, handler)
os.kill(os.getpid(), signal.SIGUSR1)
"""
    report = app.run(program, confirm=True)
    assert report.status == "completed", (report.detail, report.stderr)
    attempted = _ending(app, report.execution_id)["outcome"]["observations"]["attempted"]
    assert attempted["complete"] is False and attempted["reached"]["first"][0]["event"] == "signal handler", attempted
