"""The warm pool (docs/decisions/0015), on the real engine under runc and gVisor's runsc: pre-started,
hardened, one-use containers that a run takes instead of creating its own, with the run's own
limits, refilled in the background, reaped after a dead supervisor, and never beyond the host's room."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import docker
import pytest

from mai_safety.application.access import acting_as
from mai_safety.application.executions import MaiSafety
from mai_safety.domain.levels import Provenance
from mai_safety.domain.limits import HostRoom, RequestedLimits, ResourceLimits
from mai_safety.infrastructure.bootstrap import _pool_specs, bootstrap
from mai_safety.infrastructure.sandbox import LABEL_MANAGED, LABEL_POOL, LABEL_SUPERVISOR, DockerSandbox
from mai_safety.infrastructure.policies import load_policies
from mai_safety.infrastructure.settings import DEFAULT_IMAGE

from .cli_helpers import STARTED_PIDS, policies_with
from .conftest import settings_for, skip_without_gvisor

HOSTNAME = b"import socket\nprint(socket.gethostname())\n"


def _policies(tmp_path: Path, runtime: str, **limits: Any) -> Path:
    return policies_with(
        tmp_path / f"pool-{runtime}-{uuid.uuid4().hex[:6]}",
        limits={**{f"profiles.{name}.runtime": runtime for name in ("trusted", "standard", "untrusted")}, **limits},
    )


def _app(tmp_path: Path, runtime: str, pool: dict[str, int] | bool | None, **limits: Any) -> MaiSafety:
    url = f"sqlite:///{tmp_path / f'ledger-{runtime}-{uuid.uuid4().hex[:6]}.sqlite'}"
    return bootstrap(settings_for(url, _policies(tmp_path, runtime, **limits)), pool=pool)


def _wait_for_pool(app: MaiSafety, profile: str, waiting: int, within_s: float = 30) -> None:
    deadline = time.monotonic() + within_s
    while app.sandbox.pool_status()[profile]["waiting"] < waiting:
        assert time.monotonic() < deadline, f"the pool did not fill: {app.sandbox.pool_status()}"
        time.sleep(0.1)


def _started(app: MaiSafety, execution_id: str) -> dict[str, Any]:
    return next(event for event in app.history(execution_id) if event["event"] == "Started")


def _mine(client: docker.DockerClient, supervisor: str) -> list[Any]:
    return client.containers.list(
        all=True, filters={"label": [f"{LABEL_MANAGED}=1", f"{LABEL_SUPERVISOR}={supervisor}"]}, ignore_removed=True
    )


@pytest.fixture(params=["runc", "runsc"])
def runtime(request: pytest.FixtureRequest) -> str:
    if request.param == "runsc":
        skip_without_gvisor()
    return request.param


@pytest.fixture
def pooled(tmp_path: Path, runtime: str, docker_client: docker.DockerClient) -> Iterator[MaiSafety]:
    app = _app(tmp_path, runtime, {"standard": 2})
    _wait_for_pool(app, "standard", 2)
    yield app
    app.close()


def test_ten_pooled_runs_each_get_a_container_of_their_own_and_close_leaves_none(
    pooled: MaiSafety, runtime: str, docker_client: docker.DockerClient
) -> None:
    ids, pooled_runs = [], []
    with acting_as("pool-test"):
        for _ in range(10):
            report = pooled.run(HOSTNAME, provenance=Provenance.MAI)
            assert report.status == "completed", report
            started = _started(pooled, report.execution_id)
            assert started["runtime"]["name"] == runtime
            # The code ran in the container Started names (Docker's hostname is the id's first 12).
            assert report.stdout.strip() == started["container_id"][:12]
            ids.append(started["container_id"])
            pooled_runs.append(started["sizing"]["host"]["pooled"])
    assert len(set(ids)) == 10, "a container served two executions"
    # The pool was full for the first; a run that finds it empty while it refills takes the cold path.
    assert pooled_runs[0] is True and pooled_runs.count(True) >= 5, pooled_runs
    # Refilled in the background, then close() removes what waits.
    _wait_for_pool(pooled, "standard", 2)
    supervisor = pooled.sandbox.supervisor_id
    assert len(_mine(docker_client, supervisor)) == 2
    pooled.close()
    assert _mine(docker_client, supervisor) == []


def test_the_first_run_is_pooled_and_started_records_the_limits_applied(pooled: MaiSafety, runtime: str) -> None:
    with acting_as("pool-test"):
        report = pooled.run(b"print('hi')\n", provenance=Provenance.MAI)
    host = _started(pooled, report.execution_id)["sizing"]["host"]
    assert host["pooled"] is True, host
    applied, limits = host["pool"]["applied"], report.limits
    overhead = 32 * 1024 * 1024 if runtime == "runsc" else 0
    assert applied["memory_bytes"] == limits["memory_bytes"] + overhead
    assert applied["cpus"] == limits["cpus"]


def test_a_pooled_run_is_held_to_its_own_limits_not_the_pools(pooled: MaiSafety, runtime: str) -> None:
    """The pool's containers are made at the profile's minimum (128 MiB for standard): a run that may
    have more gets more, one that asked for less gets less, and its deadline is its own."""
    allocate = "x = bytearray({} * 1024 * 1024)\nprint(len(x) // 2**20)\n"
    with acting_as("pool-test"):
        more = pooled.run(allocate.format(200).encode(), provenance=Provenance.MAI, requested=RequestedLimits(memory_bytes=384 * 2**20))
        less = pooled.run(allocate.format(100).encode(), provenance=Provenance.MAI, requested=RequestedLimits(memory_bytes=64 * 2**20))
        slow = pooled.run(b"import time\ntime.sleep(30)\n", provenance=Provenance.MAI, requested=RequestedLimits(timeout_s=2))
    assert (more.status, more.stdout.strip()) == ("completed", "200"), more
    # On failure, what the supervision saw (a CI run once read supervision_lost here, under runsc).
    assert (less.status, less.termination_reason) == ("terminated", "memory"), (less.detail, less.usage, less.exit_code, less.stderr[-300:])
    assert (slow.status, slow.termination_reason) == ("terminated", "timeout"), slow
    assert slow.duration_s is not None and slow.duration_s < 5
    for report, memory in ((more, 384), (less, 64)):
        host = _started(pooled, report.execution_id)["sizing"]["host"]
        assert host["pooled"] is True and report.limits["memory_bytes"] == memory * 2**20
        overhead = 32 if runtime == "runsc" else 0
        assert host["pool"]["applied"]["memory_bytes"] == (memory + overhead) * 2**20


def test_the_keeper_ends_a_pooled_container_at_its_deadline_without_a_supervisor(pooled: MaiSafety, runtime: str) -> None:
    """Prepared and never supervised: the keeper started at the take ends it 1.5 s past its limit,
    and what recovery reads of it (by the name it was given for its execution) says so."""
    sandbox = pooled.sandbox
    execution_id = str(uuid.uuid4())
    limits = ResourceLimits(cpus=1, memory_bytes=128 * 2**20, pids=128, timeout_s=1, output_bytes=2**20, tmpfs_bytes=128 * 2**20)
    prepared = sandbox.prepare(execution_id, "print(1)\n", limits, limits, runtime=runtime)
    try:
        assert prepared.host["pooled"] is True
        container = sandbox.client.containers.get(prepared.container_id)
        assert LABEL_POOL in container.labels and "mai-safety.execution" not in container.labels
        deadline = time.monotonic() + 10
        while container.status == "running" and time.monotonic() < deadline:
            time.sleep(0.2)
            container.reload()
        assert container.status == "exited"
        assert sandbox.orphaned_executions() == []  # its supervisor (this process) lives
        assert sandbox.describe_execution(execution_id)["ended_by_deadline"] is True
    finally:
        sandbox.discard(prepared)


KILLED_WITH_A_POOL = """
import os, sys, threading, time
from mai_safety.infrastructure.bootstrap import bootstrap
from mai_safety.infrastructure.settings import Settings
from mai_safety.domain.levels import Provenance

app = bootstrap(Settings.from_environment(), pool={"standard": 2})
deadline = time.monotonic() + 60
while app.sandbox.pool_status()["standard"]["waiting"] < 2 and time.monotonic() < deadline:
    time.sleep(0.1)
threading.Thread(target=app.run, args=(b"import time\\ntime.sleep(60)\\n",), kwargs={"provenance": Provenance.MAI}, daemon=True).start()
while app.sandbox.pool_status()["standard"]["waiting"] < 2 or not any(
    c.name.startswith("mai-safety-run-") for c in app.sandbox.client.containers.list(filters={"label": "mai-safety.supervisor=" + app.sandbox.supervisor_id})
):
    time.sleep(0.1)
time.sleep(0.5)  # the code runs
print(app.sandbox.supervisor_id, flush=True)
os.kill(os.getpid(), 9)
"""


def test_a_killed_supervisors_pool_and_its_run_are_reaped_by_the_next_start(
    tmp_path: Path, runtime: str, docker_client: docker.DockerClient
) -> None:
    policies = _policies(tmp_path, runtime)
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    env.update({"MAI_SAFETY_DATABASE_URL": url, "MAI_SAFETY_POLICIES": str(policies), "MAI_SAFETY_ACTOR": "pool-test"})
    with subprocess.Popen([sys.executable, "-c", KILLED_WITH_A_POOL], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        STARTED_PIDS.add(process.pid)
        out, err = process.communicate(timeout=120)
    assert process.returncode == -signal.SIGKILL, err[-2000:]
    supervisor = out.strip()
    left = _mine(docker_client, supervisor)
    waiting = [container for container in left if not container.name.startswith("mai-safety-run-")]
    taken = [container for container in left if container.name.startswith("mai-safety-run-")]
    assert len(waiting) == 2 and len(taken) == 1, [container.name for container in left]
    assert all(LABEL_POOL in container.labels and "mai-safety.execution" not in container.labels for container in waiting)
    app = bootstrap(settings_for(url, policies), pool=False)  # the next start
    try:
        recovered = app.recover()
        execution_id = taken[0].name.split("mai-safety-run-")[1].split("-until-")[0]
        assert recovered == [execution_id]  # the run, and no waiting container taken for one
        ending = app.history(execution_id)[-1]
        assert (ending["event"], ending["reason"]) == ("Terminated", "supervisor_lost")
        assert ending["outcome"]["container_status"] == "running"
        assert _mine(docker_client, supervisor) == []
    finally:
        app.close()


class _OwnRoom(DockerSandbox):
    """The host's free memory stipulated (320 MiB), and only this sandbox's containers counted: the
    engine is shared with other suites whose runs come and go. Everything else is real."""

    def _room_details(self) -> tuple[HostRoom, dict[str, int]]:
        room, held = super()._room_details()
        mine = {
            container.id
            for container in self.client.containers.list(
                all=True, filters={"label": f"{LABEL_SUPERVISOR}={self.supervisor_id}"}, ignore_removed=True
            )
        }
        held = {key: value for key, value in held.items() if key in mine}
        return HostRoom(320 * 2**20, sum(held.values()), room.cpu_count, len(held)), held


def test_the_pool_holds_no_more_than_the_hosts_room(tmp_path: Path, docker_client: docker.DockerClient) -> None:
    """With room for one container of the trusted profile's minimum (256 MiB) and not two, a pool of
    three holds one; a run that then needs the room takes it from the pool, which shrinks."""
    policies = _policies(tmp_path, "runc", **{"host.memory_share": 1.0})
    limits = load_policies(policies).limits
    sandbox = _OwnRoom(
        DEFAULT_IMAGE, limits.host, pool=_pool_specs(limits, {"trusted": 3}), lock_path=tmp_path / "admission.lock"
    )
    app = bootstrap(settings_for(f"sqlite:///{tmp_path / 'room.sqlite'}", policies), sandbox=sandbox)
    try:
        _wait_for_pool(app, "trusted", 1)
        time.sleep(2)
        assert app.sandbox.pool_status()["trusted"]["waiting"] == 1
        assert len(_mine(docker_client, app.sandbox.supervisor_id)) == 1
        with acting_as("pool-test"):  # standard code: a run the trusted pool does not serve
            report = app.run(b"print('room')\n", provenance=Provenance.MAI, requested=RequestedLimits(memory_bytes=128 * 2**20))
        host = _started(app, report.execution_id)["sizing"]["host"]
        assert report.status == "completed", report
        assert host["pooled"] is False and host["pool_shrunk"] == 1, host
    finally:
        app.close()


def test_pool_size_zero_is_todays_path(tmp_path: Path, docker_client: docker.DockerClient) -> None:
    """No pool: no thread, no waiting container, no pool keys on Started; and a pool container is
    hardened exactly as the container a run makes for itself."""
    cold = _app(tmp_path, "runc", None)
    warm = _app(tmp_path, "runc", {"standard": 1})
    try:
        assert cold.sandbox._pool.thread is None and cold.sandbox.pool_status() == {}
        with acting_as("pool-test"):
            report = cold.run(b"print('cold')\n", provenance=Provenance.MAI)
        host = _started(cold, report.execution_id)["sizing"]["host"]
        assert report.status == "completed" and "pooled" not in host and "pool" not in host
        _wait_for_pool(warm, "standard", 1)
        limits = ResourceLimits(cpus=1, memory_bytes=128 * 2**20, pids=128, timeout_s=30, output_bytes=2**20, tmpfs_bytes=128 * 2**20)
        made = cold.sandbox.prepare(str(uuid.uuid4()), "print(1)\n", limits, limits)
        taken = warm.sandbox.prepare(str(uuid.uuid4()), "print(1)\n", limits, limits)
        try:
            assert taken.host["pooled"] is True
            a, b = (docker_client.api.inspect_container(prepared.container_id) for prepared in (made, taken))
            same = ("CapDrop", "SecurityOpt", "ReadonlyRootfs", "Tmpfs", "IpcMode", "Init", "LogConfig", "Runtime",
                    "Memory", "MemorySwap", "NanoCpus", "NetworkMode")
            assert {key: a["HostConfig"][key] for key in same} == {key: b["HostConfig"][key] for key in same}
            assert (a["Config"]["User"], a["Config"].get("NetworkDisabled")) == (b["Config"]["User"], b["Config"].get("NetworkDisabled"))
            assert a["HostConfig"]["PidsLimit"] == limits.pids + 2 and b["HostConfig"]["PidsLimit"] == limits.pids + 2
        finally:
            cold.sandbox.discard(made)
            warm.sandbox.discard(taken)
    finally:
        cold.close()
        warm.close()


PRIMED_PROBE = b"""import os, resource, socket
print("cpu", *resource.getrlimit(resource.RLIMIT_CPU))
for name in ("go.sock", "keeper.sock"):
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect("/sandbox/" + name)
        print(name, "reached")
    except OSError:
        print(name, "refused")
    finally:
        probe.close()
soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
try:
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard + 100))
    print("raised")
except (ValueError, OSError):
    print("not raised")
def link(fd):
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return ""  # the listing's own descriptor, closed since
print("sockets", sum(link(fd).startswith("socket:") for fd in os.listdir("/proc/self/fd")))
"""


def test_a_primed_runner_gives_the_code_its_runs_limits_and_nothing_to_reach(pooled: MaiSafety, runtime: str) -> None:
    """The runner waits in the pool container before its run (decision 0015): at the take it sets
    the run's CPU-time limit on itself, closes the connection it waited on, and only then runs the
    code; the code reaches neither that socket nor the keeper's, cannot raise the limit, and holds
    one socket, the runner's record channel."""
    with acting_as("pool-test"):
        report = pooled.run(PRIMED_PROBE, provenance=Provenance.MAI)
    assert report.status == "completed", report
    started = _started(pooled, report.execution_id)["sizing"]["host"]
    assert started["pooled"] is True and started["pool"]["runner"] == "started ahead", started
    seconds = report.limits["cpu_seconds"]
    lines = report.stdout.splitlines()
    assert lines[0] == f"cpu {math.ceil(seconds) + 1} {math.ceil(seconds) + 2}", lines
    assert lines[1:] == ["go.sock refused", "keeper.sock refused", "not raised", "sockets 1"], lines
    completed = next(event for event in pooled.history(report.execution_id) if event["event"] == "Completed")
    attempted = completed["outcome"]["observations"]["attempted"]
    assert attempted["complete"] is True, attempted


KILL_PRIMED_RUNNER = """import os, signal
for pid in (p for p in os.listdir('/proc') if p.isdigit() and int(p) != os.getpid()):
    try:
        if b'--primed' in open(f'/proc/{pid}/cmdline', 'rb').read() and b'runner.py' in open(f'/proc/{pid}/cmdline', 'rb').read():
            os.kill(int(pid), signal.SIGKILL)
            print('killed')
    except OSError:
        pass
"""


def test_a_run_whose_primed_runner_is_gone_is_run_by_exec_with_a_record_of_its_own(
    pooled: MaiSafety, runtime: str, docker_client: docker.DockerClient
) -> None:
    """The primed runner takes the record's socket (its one connection) and key ahead of its run. If
    it is gone when its run comes, the runner started by exec then gets a fresh socket: the record
    is the run's, sealed and complete, not the gone runner's cut one."""
    for container in docker_client.containers.list(filters={"label": [f"{LABEL_SUPERVISOR}={pooled.sandbox.supervisor_id}", LABEL_POOL]}):
        done = container.exec_run(["python3", "-I", "-c", KILL_PRIMED_RUNNER], user="1000:1000")
        assert done.output.decode().split() == ["killed"], done
    with acting_as("pool-test"):
        report = pooled.run(b"open('/tmp/note', 'w').write('x')\nprint('ran')\n", provenance=Provenance.MAI)
    assert report.status == "completed" and report.stdout == "ran\n", report
    assert _started(pooled, report.execution_id)["sizing"]["host"]["pooled"] is True
    completed = next(event for event in pooled.history(report.execution_id) if event["event"] == "Completed")
    attempted = completed["outcome"]["observations"]["attempted"]
    assert attempted["complete"] is True and attempted["events"]["file_open"]["count"] >= 1, attempted

WATCHED_PROBE = b"""import threading, time
open('/tmp/filler', 'wb').write(b'x' * 8 * 1024 * 1024)
for _ in range(3):
    threading.Thread(target=time.sleep, args=(1.5,)).start()
print('watched')
"""


def test_under_gvisor_the_keepers_watch_waits_ahead_and_reads_the_run(tmp_path: Path, docker_client: docker.DockerClient) -> None:
    """Under gVisor the keeper's watch (payload/watch.py, what only gVisor's kernel knows: the code's
    tasks, its tmpfs use) is started ahead in each pool container (primed.py), as uid 1001, and reads
    the run it was given from its go line on: the code's tasks come from it alone."""
    skip_without_gvisor()
    app = _app(tmp_path, "runsc", {"standard": 1})
    try:
        _wait_for_pool(app, "standard", 1)
        with acting_as("pool-test"):
            report = app.run(WATCHED_PROBE, provenance=Provenance.MAI)
        assert report.status == "completed" and report.stdout.strip() == "watched", report
        host = _started(app, report.execution_id)["sizing"]["host"]
        assert host["pooled"] is True and host["pool"]["watch"] == "started ahead", host
        completed = next(event for event in app.history(report.execution_id) if event["event"] == "Completed")
        peaks = completed["outcome"]["peaks"]
        assert peaks["pids"] >= 4 and peaks["disk_bytes"] >= 8 * 1024 * 1024, peaks
    finally:
        app.close()


FIND_SURVEY = """import os
survey = next(int(p) for p in os.listdir('/proc') if p.isdigit()
              and b'survey.py' in open(f'/proc/{p}/cmdline', 'rb').read() and int(p) != os.getpid())
open('/workspace/real.txt', 'w').write('made by the code')
"""
SURVEY_ATTACKS = {
    # The record it would like: a file that is not there, none of those that are; and a MAC it cannot
    # make. (The runsc tested lets the code write it on the survey's output.)
    "forged record": FIND_SURVEY + """import sys
forged = '{"nonce":"0","record":{"processes_left_running":0,"files_created":{"count":1,"bytes":1,"first":[{"path":"/workspace/forged.txt","bytes":1}]},"disk":{}}}'
try:
    with open(f'/proc/{survey}/fd/1', 'w') as out:
        out.write('\\n' + forged + '\\n' + '0' * 64 + '\\n')
    print('written')
except OSError as error:
    print('refused', error.errno)
""",
    # The survey ended before its run: the record must come from somewhere else.
    "survey killed": FIND_SURVEY + """import signal
os.kill(survey, signal.SIGKILL)
print('killed')
""",
    # A go of the code's own: if it reaches the survey, it starts now (ending the code) with a nonce
    # nobody gave it. (The runsc tested opens that stdin for writing, but the write fails: EBADF.)
    "forged go": FIND_SURVEY + """import time
try:
    with open(f'/proc/{survey}/fd/0', 'w') as go:
        go.write('go 00000000000000000000000000000000\\n')
    print('written', flush=True)
except OSError as error:
    print('refused', error.errno, flush=True)
time.sleep(5)
print('not reached')
""",
}


def test_under_gvisor_the_survey_waits_ahead_and_is_believed_only_with_its_key(
    tmp_path: Path, docker_client: docker.DockerClient
) -> None:
    """Under gVisor the survey after the code (payload/survey.py: it ends what the code left and
    lists what it left) is started ahead in each pool container, as the code's uid, with a key it
    reads before any code runs there. This runsc lets the code open its standard input and output
    for writing: a record the code writes, or a go it gives, is refused (no MAC, another nonce) and
    the survey is made by exec as before; so is one the code killed. Either way the record lists the
    files the code really made."""
    skip_without_gvisor()
    app = _app(tmp_path, "runsc", {"standard": 1, "untrusted": 1})  # the attacks are HIGH: run once confirmed, untrusted
    try:
        _wait_for_pool(app, "standard", 1)
        with acting_as("pool-test"):
            report = app.run(FIND_SURVEY.encode() + b"print('plain')\n", provenance=Provenance.MAI)
        assert report.status == "completed" and report.stdout.strip() == "plain", report
        assert _started(app, report.execution_id)["sizing"]["host"]["pool"]["survey"] == "started ahead"
        observations = _completed(app, report.execution_id)["outcome"]["observations"]
        assert "started ahead" in observations["surveyed"], observations["surveyed"]
        assert _files_created(observations) == ["/workspace/real.txt"]
        for attack, program in SURVEY_ATTACKS.items():
            _wait_for_pool(app, "untrusted", 1)
            with acting_as("pool-test"):
                report = app.run(program.encode(), provenance=Provenance.MAI, confirm=True)
            assert report.status in ("completed", "terminated"), (attack, report)
            assert _started(app, report.execution_id)["sizing"]["host"]["pool"]["survey"] == "started ahead", attack
            observations = _completed(app, report.execution_id)["outcome"]["observations"]
            assert _files_created(observations) == ["/workspace/real.txt"], (attack, observations)
            refused = "not believed" in observations["surveyed"]
            if attack == "survey killed":
                assert refused, observations["surveyed"]
            elif attack == "forged go":  # it reached the survey (which ended the code), refused; or it went nowhere
                assert refused or "not reached" in report.stdout, (observations["surveyed"], report.stdout)
    finally:
        app.close()


def _completed(app: MaiSafety, execution_id: str) -> dict[str, Any]:
    return next(event for event in app.history(execution_id) if event["event"] in ("Completed", "Terminated"))


def _files_created(observations: dict[str, Any]) -> list[str]:
    return sorted(str(entry.get("path")) for entry in observations["files_created"].get("first", []))
