"""The whole path against the real engine and both real ledgers: each test asserts the recorded events.

Each limit crossed is tested once, in test_supervision.py
(test_each_limit_crossed_ends_the_run_recorded_with_the_limit_the_value_and_the_time)."""

from __future__ import annotations

import json
import platform
import socket

import docker
import psutil

from mai_safety.application.executions import MaiSafety
from mai_safety.domain.limits import RequestedLimits

from .conftest import run_overridden, runtime_of

MiB = 1024 * 1024
# Under gVisor each process of the code costs about 4 MiB of the sandbox's memory (measured): the
# pids tests give it room, so that the wall they meet is the pids limit under both runtimes.
ROOM_FOR_PROCESSES = 256 * MiB


def _events(app: MaiSafety, execution_id: str) -> list[dict]:
    return app.history(execution_id)


def test_hello_world_completes_with_its_output_recorded_and_the_chain_intact(app: MaiSafety) -> None:
    report = app.run(b'print("hello, world")\n')
    assert report.status == "completed"
    assert report.exit_code == 0
    assert report.stdout == "hello, world\n"
    events = _events(app, report.execution_id)
    assert [event["event"] for event in events] == ["Assessed", "Started", "Completed"]
    assert events[0]["level"] == "LOW"
    assert events[1]["container_id"]
    assert events[1]["limits"]["memory_bytes"] == report.limits["memory_bytes"]
    assert events[2]["outcome"]["stdout"] == "hello, world\n"
    verification = app.verify()
    assert verification.intact, verification.problems
    assert verification.checked == 3


def test_a_fork_bomb_is_contained_and_the_host_stays_healthy(contained_app: MaiSafety) -> None:
    app = contained_app
    before = len(psutil.pids())
    bomb = b"import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
    report = run_overridden(app, bomb, requested=RequestedLimits(pids=16, timeout_s=20, memory_bytes=ROOM_FOR_PROCESSES))
    assert report.level == "BLOCKED"  # the assessor knows a fork bomb; the sandbox holds it anyway
    assert report.status == "terminated"
    assert report.termination_reason == "pids", report.detail
    assert len(psutil.pids()) < before + 20  # nothing escaped into the host
    after = app.run(b"print('still fine')\n")
    assert after.stdout == "still fine\n"


def test_the_sandbox_has_no_network_a_read_only_root_and_an_unprivileged_user(contained_app: MaiSafety) -> None:
    app = contained_app
    program = b"""
import json, os, socket
result = {"uid": os.getuid(), "gid": os.getgid()}
for name, action in {
    "socket": lambda: socket.create_connection(("192.0.2.1", 80), timeout=2),
    "dns": lambda: socket.getaddrinfo("example.invalid", 80),
    "etc": lambda: open("/etc/mai-safety-probe", "w"),
    "root": lambda: open("/mai-safety-probe", "w"),
    "usr": lambda: open("/usr/mai-safety-probe", "w"),
}.items():
    try:
        action()
        result[name] = "allowed"
    except OSError as exc:
        result[name] = type(exc).__name__ + ":" + str(exc.errno)
with open("/workspace/inside.txt", "w") as handle:
    handle.write("writable")
result["workspace"] = open("/workspace/inside.txt").read()
result["capabilities"] = [line.split()[1] for line in open("/proc/self/status") if line.startswith("CapEff")][0]
result["interfaces"] = sorted(name for _, name in socket.if_nameindex())
result["kernel"] = open("/proc/version").read()
result["root_mount"] = [line.split()[3].split(",")[0] for line in open("/proc/mounts") if line.split()[1] == "/"]
print(json.dumps(result))
"""
    report = run_overridden(app, program)
    assert report.status == "completed", report.stderr
    seen = json.loads(report.stdout)
    assert seen["uid"] == 1000 and seen["gid"] == 1000
    for name in ("socket", "dns", "etc", "root", "usr"):
        assert seen[name] != "allowed", name
    assert seen["workspace"] == "writable"
    assert seen["capabilities"] == "0000000000000000"
    assert seen["interfaces"] == ["lo"]
    assert seen["root_mount"] and set(seen["root_mount"]) == {"ro"}
    if runtime_of(app, report.execution_id) == "runsc":
        # gVisor's own kernel answers, not the host's; it refuses writes to the read-only root
        # before it looks at the mount (EACCES for uid 1000), where the host's says EROFS.
        assert "4.4.0" in seen["kernel"] and platform.release() not in seen["kernel"]
        assert seen["etc"].endswith((":13", ":30")) and seen["root"].endswith((":13", ":30"))
    else:
        assert platform.release() in seen["kernel"]
        assert seen["etc"].endswith(":30") and seen["root"].endswith(":30")  # EROFS


def test_a_container_left_by_a_dead_supervisor_is_removed_on_the_next_start(
    app: MaiSafety, docker_client: docker.DockerClient
) -> None:
    orphan = docker_client.containers.create(
        "mai-safety/sandbox:1",
        command=["sleep", "60"],
        labels={"mai-safety.managed": "1", "mai-safety.supervisor": f"{socket.gethostname()}/999999999/1.000"},
    )
    try:
        assert app.remove_leftovers() >= 1
        assert not docker_client.containers.list(all=True, filters={"id": orphan.id})
    finally:
        try:
            orphan.remove(force=True)
        except docker.errors.NotFound:
            pass
