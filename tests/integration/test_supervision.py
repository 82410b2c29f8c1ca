"""Live supervision on the real engine and both ledgers: samples, every limit's termination,
limits that follow trust and the host, what the code touched, cancellation, recovery, concurrency."""

from __future__ import annotations

import hashlib

import json
import os
import signal
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import docker
import psutil
import pytest

from mai_safety.application.access import acting_as
from mai_safety.application.executions import MaiSafety
from mai_safety.domain.levels import Provenance, TrustLevel
from mai_safety.domain.limits import HostBusy, RequestedLimits
from mai_safety.infrastructure.bootstrap import bootstrap
from mai_safety.ledger.infrastructure.open_index import open_table

from .cli_helpers import CLI, STARTED_PIDS, policies_with
from mai_safety.infrastructure.sandbox.runtimes import end_gvisor_processes, runsc_processes

from .conftest import GVISOR, containers_of_this_run, run_overridden, runtime_of, settings_for, skip_without_gvisor, started_event

MiB = 1024 * 1024


def _events(app: MaiSafety, execution_id: str) -> list[dict]:
    return app.history(execution_id)


def _ending(app: MaiSafety, execution_id: str) -> dict:
    return _events(app, execution_id)[-1]


@pytest.fixture
def app_with(tmp_path: Path, docker_client: docker.DockerClient) -> Iterator:
    """An application under a policy changed for the test, on SQLite (what supervision does is
    the same on either ledger; recovery after a killed supervisor runs on both, below)."""
    made: list[MaiSafety] = []

    def make(**changes: dict) -> MaiSafety:
        policies = policies_with(tmp_path / f"p{len(made)}", **changes)
        application = bootstrap(settings_for(f"sqlite:///{tmp_path / 'ledger.sqlite'}", policies))
        made.append(application)
        return application

    yield make
    for application in made:
        application.close()


def test_samples_are_recorded_while_a_cpu_bound_program_runs(contained_app: MaiSafety) -> None:
    app = contained_app
    report = app.run(b"import time\nend = time.time() + 2.5\nwhile time.time() < end:\n    pass\n")
    assert report.status == "completed", report
    events = _events(app, report.execution_id)
    samples = [event["sample"] for event in events if event["event"] == "ResourceSampled"]
    assert len(samples) >= 2
    assert samples[-1]["cpu_seconds"] > samples[0]["cpu_seconds"] > 0
    assert all(sample["memory_bytes"] > 0 for sample in samples)
    peaks = events[-1]["outcome"]["peaks"]
    assert peaks["samples"] > len(samples)  # thinned: more readings than recorded samples
    assert peaks["cpu_seconds"] >= samples[-1]["cpu_seconds"]


@pytest.mark.parametrize(
    ("program", "requested", "reason"),
    [
        (b"x = []\nwhile True:\n    x.append(bytearray(4 * 1024 * 1024))\n", RequestedLimits(memory_bytes=96 * MiB), "memory"),
        (b"while True:\n    pass\n", RequestedLimits(cpu_seconds=1, timeout_s=30), "cpu_time"),
        (b"import time\ntime.sleep(60)\n", RequestedLimits(timeout_s=2), "timeout"),
        # Memory to spare for gVisor's ~4 MiB per process, so that pids is the wall met under both runtimes.
        (b"import os, time\nwhile True:\n    os.fork() or time.sleep(30)\n", RequestedLimits(pids=8, memory_bytes=256 * MiB), "pids"),
        (b"while True:\n    print('x' * 4096)\n", RequestedLimits(output_bytes=256 * 1024), "output_limit"),
        (
            b"block = b'x' * (1024 * 1024)\nwith open('/workspace/fill', 'wb') as f:\n    while True:\n        f.write(block)\n        f.flush()\n",
            RequestedLimits(memory_bytes=256 * MiB),
            "disk",
        ),
    ],
    ids=["memory", "cpu_time", "wall_time", "pids", "output", "disk"],
)
@pytest.mark.alone  # a limit met, seen from outside within a sample (tests/alone.py)
def test_each_limit_crossed_ends_the_run_recorded_with_the_limit_the_value_and_the_time(
    contained_app: MaiSafety, program: bytes, requested: RequestedLimits, reason: str
) -> None:
    app = contained_app
    if reason == "pids" and app.policy.runtimes.get(TrustLevel.UNTRUSTED) == "runsc":
        # Under gVisor a refused fork is seen from the sampled count (decision 0013): a bomb whose
        # parent dies at its first refusal may end between two samples and complete, its fork
        # refused all the same. A bomb that keeps trying stays at the wall.
        program = b"import os, time\nwhile True:\n    try:\n        os.fork() or time.sleep(30)\n    except OSError:\n        time.sleep(0.01)\n"
    report = run_overridden(app, program, requested=requested)
    assert report.status == "terminated", report
    assert report.termination_reason == reason, report.detail
    ending = _ending(app, report.execution_id)
    assert ending["event"] == "Terminated" and ending["reason"] == reason
    violation = ending["outcome"]["violation"]
    assert violation["limit"] == reason
    assert violation["observed"] >= 0 and violation["allowed"] > 0 and violation["at_s"] >= 0
    if reason == "timeout":
        assert violation["at_s"] < 3.0
        # Killed within a second of the limit.
        assert requested.timeout_s <= ending["outcome"]["duration_s"] < requested.timeout_s + 1.0
    if reason == "pids":
        # The fork past the limit was refused: the code never held more than it was given.
        assert violation["allowed"] == requested.pids and violation["observed"] <= requested.pids
    if reason == "output_limit":
        # Kept up to the cap exactly, and said so.
        assert report.output_truncated and len(report.stdout.encode()) == requested.output_bytes
        assert ending["outcome"]["output_truncated"] is True


def test_limits_follow_the_trust_level(app: MaiSafety) -> None:
    code = b"print('hi')\n"
    trusted = app.run(code, provenance=Provenance.USER)
    untrusted = app.run(code, provenance=Provenance.EXTERNAL)
    assert (trusted.trust, untrusted.trust) == ("trusted", "untrusted")
    assert trusted.limits["cpus"] > untrusted.limits["cpus"]
    assert trusted.limits["memory_bytes"] > untrusted.limits["memory_bytes"]
    assert trusted.limits["timeout_s"] > untrusted.limits["timeout_s"]
    started = started_event(app, untrusted.execution_id)
    assert started["sizing"]["trust"] == "untrusted" and started["sizing"]["provenance"] == "external"


def test_more_complex_code_gets_more_within_its_profile(app: MaiSafety) -> None:
    simple = app.run(b"print(1)\n")
    lines = "".join(f"value_{index} = {index}\n" for index in range(400)).encode() + b"print(1)\n"
    complex_ = app.run(lines)
    assert complex_.limits["memory_bytes"] > simple.limits["memory_bytes"]
    assert complex_.limits["timeout_s"] > simple.limits["timeout_s"]
    assert started_event(app, complex_.execution_id)["sizing"]["complexity_score"] == 1.0


def test_limits_shrink_when_the_host_share_leaves_little_room(app_with) -> None:  # type: ignore[no-untyped-def]
    available = psutil.virtual_memory().available
    share = (320 * MiB) / available  # the policy hands out about 320 MiB of what is free
    app = app_with(limits={"host.memory_share": share})
    report = app.run(b"print('small room')\n", requested=RequestedLimits(memory_bytes=512 * MiB))
    assert report.status == "completed", report
    assert 128 * MiB <= report.limits["memory_bytes"] < 512 * MiB
    host = started_event(app, report.execution_id)["sizing"]["host"]
    assert "memory_bytes" in host["capped"] and host["memory_share"] == pytest.approx(share)


def test_no_room_on_the_host_refuses_the_run_with_a_clear_message_and_records_it(app_with) -> None:  # type: ignore[no-untyped-def]
    app = app_with(limits={"host.memory_share": 0.000001, "host.queue_wait_s": 0})
    with pytest.raises(HostBusy, match="try again later"):
        app.run(b"print(1)\n")
    # The ledger holds the whole story: assessed, then ended unrun.
    verification = app.verify()
    assert verification.intact and verification.checked == 2


def test_the_record_lists_files_left_and_what_the_code_attempted(contained_app: MaiSafety) -> None:
    app = contained_app
    program = b"""
import socket
with open('/workspace/report.txt', 'w') as handle:
    handle.write('done')
open('/tmp/scratch.bin', 'wb').write(b'0' * 1000)
try:
    socket.create_connection(('192.0.2.7', 443), timeout=1)
except OSError as error:
    print('blocked:', error.errno)
"""
    report = app.run(program)
    assert report.status == "completed", report.stderr
    observations = _ending(app, report.execution_id)["outcome"]["observations"]
    files = {entry["path"]: entry for entry in observations["files_created"]["first"]}
    assert files["/workspace/report.txt"]["bytes"] == 4
    assert files["/tmp/scratch.bin"]["bytes"] == 1000
    attempted = observations["attempted"]
    assert attempted["self_reported"] is True and attempted["complete"] is True
    assert any(item["path"] == "/workspace/report.txt" for item in attempted["events"]["file_open"]["first"])
    assert any("192.0.2.7" in item["address"] for item in attempted["events"]["network"]["first"])
    assert files["/workspace/report.txt"]["sha256"] == hashlib.sha256(b"done").hexdigest()
    assert observations["processes_left_running"] == 0
    assert attempted["channel"].startswith("unix socket")
    if runtime_of(app, report.execution_id) == "runsc":
        assert observations["surveyed"].startswith("inside gVisor")
        assert "blocked: 113" in report.stdout  # gVisor's netstack: no route to the host
    else:
        assert "blocked: 101" in report.stdout


def test_a_running_execution_can_be_cancelled_and_the_actor_is_recorded(
    contained_app: MaiSafety, docker_client: docker.DockerClient
) -> None:
    app = contained_app
    results: list = []
    runner = threading.Thread(target=lambda: results.append(app.run(b"import time\ntime.sleep(60)\n")))
    runner.start()
    execution_id = _wait_for_started(app)
    with acting_as("operator-on-call"):
        app.cancel(execution_id)
    runner.join(30)
    assert not runner.is_alive()
    ending = _ending(app, execution_id)
    assert (ending["event"], ending["reason"], ending["actor"]) == ("Terminated", "cancelled", "operator-on-call")
    assert results[0].status == "terminated" and results[0].termination_reason == "cancelled"
    assert app.verify().intact


def test_a_killed_service_is_recovered_on_the_next_start(
    database_url: str, tmp_path: Path, docker_client: docker.DockerClient
) -> None:
    _kill_the_supervisor_then_recover(database_url, tmp_path, docker_client)


def test_a_running_execution_removed_from_the_index_is_still_recovered_from_its_container(
    tmp_path: Path, docker_client: docker.DockerClient
) -> None:
    # The index of open executions is not the record (decision 0019): whoever can write the ledger's
    # file can delete a row, and recovery still finds the run from its container.
    database = tmp_path / "ledger.sqlite"

    def remove_the_row(execution_id: str) -> None:
        with sqlite3.connect(database) as ledger:
            assert ledger.execute(f"DELETE FROM {open_table('stored_events')} WHERE originator_id = ?", (execution_id,)).rowcount == 1

    ending = _kill_the_supervisor_then_recover(f"sqlite:///{database}", tmp_path, docker_client, remove_the_row)
    assert ending["outcome"]["detail"].startswith("supervisor ") and ending["outcome"]["detail"].endswith(" is gone")


def _kill_the_supervisor_then_recover(
    database_url: str, tmp_path: Path, docker_client: docker.DockerClient, before_recovery: Any = None
) -> dict:
    program = tmp_path / "sleepy.py"
    program.write_text("import time\ntime.sleep(120)\n")
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    env["MAI_SAFETY_DATABASE_URL"] = database_url
    service = subprocess.Popen(CLI + ["run", str(program)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    STARTED_PIDS.add(service.pid)
    app = bootstrap(settings_for(database_url))
    try:
        execution_id = _wait_for_started(app)
        service.send_signal(signal.SIGKILL)
        service.wait(10)
        assert docker_client.containers.list(filters={"label": f"mai-safety.execution={execution_id}"})
        if before_recovery is not None:
            before_recovery(execution_id)
        recovered = subprocess.run(
            CLI + ["recover", "--json"], env=env, capture_output=True, text=True, timeout=60, check=True
        )
        assert json.loads(recovered.stdout)["recovered"] == [execution_id]
        assert not docker_client.containers.list(all=True, filters={"label": f"mai-safety.execution={execution_id}"})
        ending = _ending(app, execution_id)
        assert (ending["event"], ending["reason"]) == ("Terminated", "supervisor_lost")
        assert app.verify().intact
        return ending
    finally:
        if service.poll() is None:
            service.kill()
        app.close()


@pytest.mark.alone  # eight runs at once (tests/alone.py)
def test_eight_concurrent_executions_all_end_recorded_with_nothing_left_running(
    app: MaiSafety, docker_client: docker.DockerClient
) -> None:
    program = b"import time\ntime.sleep(1.5)\nprint('done')\n"
    with ThreadPoolExecutor(max_workers=8) as pool:
        reports = list(pool.map(lambda _: app.run(program), range(8)))
    assert [report.status for report in reports] == ["completed"] * 8
    assert all(report.stdout == "done\n" for report in reports)
    # They ran side by side, not one after another. Not "all eight at once": on a busy 2-core host
    # the last of eight can start after the first has ended (the runs are assessed and their
    # containers made concurrently, but not instantly), which says nothing about supervision.
    spans = [
        (started_event(app, r.execution_id)["timestamp"], _ending(app, r.execution_id)["timestamp"])
        for r in reports
    ]
    assert max(sum(start <= moment < end for start, end in spans) for moment, _ in spans) >= 2
    assert app.verify().intact
    assert not containers_of_this_run(docker_client)


def _wait_for_started(app: MaiSafety, timeout_s: float = 30) -> str:
    """The id of the one running execution, once its Started event is in the ledger."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        running = app.running_ids()  # what recovery would see
        if running:
            assert len(running) == 1, running
            return str(running[0])
        time.sleep(0.1)
    raise AssertionError("no execution started in time")


def test_a_killed_service_under_gvisor_is_recovered_and_no_runsc_process_outlives_it(
    tmp_path: Path, docker_client: docker.DockerClient
) -> None:
    """External code gets the untrusted profile, whose shipped runtime is auto: gVisor here."""
    skip_without_gvisor()
    database_url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    program = tmp_path / "sleepy.py"
    program.write_text("import time\ntime.sleep(120)\n")
    env = {key: value for key, value in os.environ.items() if not key.startswith("MAI_SAFETY_")}
    env["MAI_SAFETY_DATABASE_URL"] = database_url
    service = subprocess.Popen(
        CLI + ["run", str(program), "--provenance", "external"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    STARTED_PIDS.add(service.pid)
    app = bootstrap(settings_for(database_url))
    try:
        execution_id = _wait_for_started(app)
        assert runtime_of(app, execution_id) == "runsc"
        (container,) = docker_client.containers.list(filters={"label": f"mai-safety.execution={execution_id}"})
        assert any(container.id in " ".join(command) for _, command in runsc_processes())
        service.send_signal(signal.SIGKILL)
        service.wait(10)
        recovered = subprocess.run(CLI + ["recover", "--json"], env=env, capture_output=True, text=True, timeout=60, check=True)
        assert json.loads(recovered.stdout)["recovered"] == [execution_id]
        assert not any(container.id in " ".join(command) for _, command in runsc_processes())
        assert _ending(app, execution_id)["reason"] == "supervisor_lost"
    finally:
        if service.poll() is None:
            service.kill()
        app.close()


def test_runsc_processes_a_failed_start_leaves_are_ended_by_container_id(docker_client: docker.DockerClient) -> None:
    skip_without_gvisor()
    container = docker_client.containers.create(
        "mai-safety/sandbox:1", command=["/no/such/program"], runtime="runsc", labels={"mai-safety.managed": "1"}
    )
    with pytest.raises(docker.errors.APIError):
        container.start()
    container.remove(force=True)
    end_gvisor_processes(container.id)
    assert not any(container.id in " ".join(command) for _, command in runsc_processes())


def test_the_shipped_policy_runs_untrusted_code_under_gvisor_where_it_is_registered(app: MaiSafety) -> None:
    report = app.run(b"print(open('/proc/version').read())\n", provenance=Provenance.EXTERNAL)
    assert report.status == "completed", report
    started = started_event(app, report.execution_id)
    assert started["runtime"]["requested"] == "auto"
    if GVISOR.get("available"):
        assert started["runtime"]["name"] == "runsc" and "note" not in started["runtime"]
        assert "4.4.0" in report.stdout
    else:
        assert started["runtime"]["name"] == "runc" and "gVisor" in started["runtime"]["note"]
    trusted = app.run(b"print(1)\n", provenance=Provenance.USER)
    assert started_event(app, trusted.execution_id)["runtime"] == {"name": "runc", "requested": "runc"}


def test_a_gvisor_sandbox_killed_under_a_running_program_is_never_recorded_as_its_clean_finish(
    app: MaiSafety, docker_client: docker.DockerClient
) -> None:
    """The host kills gVisor's kernel while the program sleeps (as the OOM killer does at the memory
    limit): the engine may still hand back a status for the program's command, runsc's own (127,
    its wait for the program failed), which must not be recorded as the program's. Seen under load
    at the memory limit: `completed`, exit status 127. Nothing reached a limit here, so the end is
    the supervision's loss, with the sandbox's exit status, and no exit status of the program."""
    skip_without_gvisor()
    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(app.run, b"import time\nprint('up', flush=True)\ntime.sleep(20)\nprint('woke')\n", provenance=Provenance.EXTERNAL)
        deadline = time.monotonic() + 30
        sandbox = None
        while sandbox is None and time.monotonic() < deadline:
            for container in containers_of_this_run(docker_client):
                kernels = [process for process, command in runsc_processes() if container.id in command and "boot" in command]
                if kernels:
                    sandbox = kernels[0]
            time.sleep(0.1)
        assert sandbox is not None, "gVisor's kernel never started"
        time.sleep(1.5)  # the program is asleep in it
        sandbox.kill()
        report = running.result(timeout=60)
    assert report.status != "completed", report
    assert (report.status, report.termination_reason, report.exit_code) == ("terminated", "supervision_lost", None), report
    assert "gVisor's sandbox ended by itself (exit status 137)" in report.detail
    assert "woke" not in report.stdout
