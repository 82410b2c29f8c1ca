"""The container runtimes a run may get: runc, or gVisor's runsc (decision 0013).

Whether gVisor can serve runs on this engine (``gvisor_status``), which runtime a run gets for the
one its profile asks (``choose_runtime``), what gVisor's own kernel costs on top of the code's
limits, and the cleanup of gVisor's host processes that outlive their container.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import Any

import docker
import psutil

from mai_safety.application.errors import SandboxUnavailable
from mai_safety.domain.limits import ResourceLimits
from mai_safety.domain.network import NetworkMode, NetworkRequest
from mai_safety.domain.supervision import Peaks, Violation

from .errors import BestEffort, does_not_answer
from .observation import OBSERVED_RUNTIME, observed_status

GVISOR_RUNTIME = "runsc"
GVISOR_HINT = "MAI_SAFETY_INSTALL_GVISOR=1 bash scripts/setup.sh registers it"
# gVisor's own kernel (its sandbox and gofer processes, about 15-25 MiB measured idle) is charged to
# the container's memory cgroup: it gets this much on top of the code's limit.
GVISOR_MEMORY = 32 * 1024 * 1024
# The host's pids limit under gVisor holds gVisor's threads, not the code's (about 38 idle and six
# more per steady process of the code, measured); the code's own count is RLIMIT_NPROC inside. A
# fork bomb held at RLIMIT_NPROC still has gVisor's ptrace platform make host tasks for every refused
# attempt (at 16 tasks: 234 after 0.5 s, 376 after 1.5 s, 590 after 4 s; at 64: 720 after 1 s, 1,463
# after 2.5 s), and the sentry dies when the host refuses it one: this allowance gives the
# supervisor seconds, not one sample, to end the run first (at 64 tasks, 1,728 of the host's 32,768).
GVISOR_HOST_TASKS = (192, 24)
#: Under gVisor, a sandbox that ended by itself after the host refused its kernel a task, or with
#: its host tasks this close to their limit at the last reading, was ended by the code's processes.
GVISOR_TASKS_DEATH = 0.75
#: How long an answer of gvisor_status() is kept.
STATUS_TTL_S = 30.0
#: Under gVisor, a sandbox whose memory peaked this close to its limit and then ended by itself
#: ran out of memory: gVisor's kernel fails its own allocations and exits before the host's OOM
#: killer acts, so the engine does not flag it OOMKilled (seen with fork bombs near the limit).
GVISOR_MEMORY_DEATH = 0.9


def gvisor_host_tasks(pids: int) -> int:
    """The host's pids limit of a gVisor container whose code may hold ``pids`` tasks."""
    return GVISOR_HOST_TASKS[0] + GVISOR_HOST_TASKS[1] * pids


def gvisor_status(client: Any = None) -> dict[str, Any]:
    """Whether gVisor can serve runs on this Docker engine: registered as the runtime ``runsc``, with
    gVisor's networking off (else a container with no network does not start) and host sockets
    open to it (else the runner's record cannot reach the supervisor). ``available`` says whether
    runs may use it; ``reason`` and ``how`` say why not and what to do; ``version`` is what the
    engine's registered binary says of itself (gvisor_version)."""
    own = client is None
    runtimes: dict[str, Any] = {}
    with BestEffort() as attempt:
        try:
            if own:
                client = docker.from_env(timeout=10)
            runtimes = client.info().get("Runtimes") or {}
        finally:
            if own and client is not None:
                client.close()
    if attempt.error is not None:
        return {"available": False, "reason": does_not_answer(attempt.error)}
    entry = runtimes.get(GVISOR_RUNTIME)
    if entry is None:
        return {
            "available": False,
            "reason": f"the Docker engine has no {GVISOR_RUNTIME} runtime (runtimes: {', '.join(sorted(runtimes))})",
            "how": GVISOR_HINT,
        }
    arguments = [str(argument) for argument in entry.get("runtimeArgs") or []]
    path = str(entry.get("path") or GVISOR_RUNTIME)
    status: dict[str, Any] = {
        "available": True,
        "runtime": GVISOR_RUNTIME,
        "path": path,
        "version": gvisor_version(path),
        "arguments": arguments,
        "record_socket": any(argument in ("--host-uds=open", "--host-uds=all") for argument in arguments),
        "observed": observed_status(runtimes),  # decision 0044: the trace from outside the code
    }
    if "--network=none" not in arguments:
        status["available"] = False
        status["reason"] = (
            f"{GVISOR_RUNTIME} is registered without --network=none: its containers would not start "
            "(gVisor's networking needs a network namespace a run without network does not have)"
        )
        status["how"] = GVISOR_HINT
    return status


def gvisor_version(path: str) -> str:
    """The first line of ``runsc --version`` of the binary the engine runs (``runsc version
    0.0~20221219.0`` for Debian's), or why it cannot be read from here: inside the compose
    deployment the engine's binary is the host's, not this container's."""
    try:
        found = os.stat(path)
    except OSError:
        return f"unknown: {path} is not visible from here"
    return _version_of(path, found.st_mtime_ns, found.st_size)


@functools.lru_cache(maxsize=4)
def _version_of(path: str, _mtime_ns: int, _size: int) -> str:
    """Asked once per binary (the path, its time and size name it): runs ask gvisor_status often."""
    try:
        answer = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"unknown: {path} --version failed ({type(exc).__name__})"
    line = (answer.stdout or answer.stderr).strip().splitlines()[:1]
    if answer.returncode != 0 or not line:
        return f"unknown: {path} --version answered exit status {answer.returncode}"
    return line[0][:200]


def choose_runtime(
    requested: str,
    network: NetworkRequest,
    *,
    host_visible: bool,
    in_container: bool,
    gvisor: Callable[[], dict[str, Any]],
) -> dict[str, Any]:
    """The runtime a run gets for the profile's ``requested`` one (runc | runsc | auto), and the
    note that says why when ``auto`` gives runc. ``runsc`` never falls back: it is refused.
    ``gvisor``: this engine's gvisor_status(), asked only when the answer depends on it.
    ``in_container``: kept for the callers; ``--network deps`` works from a container since the
    proxy's files are copied to the work root and its readiness read from its log (egress.py)."""
    if not host_visible:
        raise SandboxUnavailable(
            "mai-safety runs inside a container but MAI_SAFETY_WORK_DIR is not set: set it to a folder "
            "mounted at the same path on the host and in this container (docs/decisions/0017)"
        )
    if requested == "runc":
        return {"name": "runc", "requested": requested}
    if requested not in ("runsc", "auto"):
        raise SandboxUnavailable(f"unknown runtime {requested!r}: the policy names runc, runsc or auto")
    if network.mode is NetworkMode.DEPS:
        if requested == "runsc":
            raise SandboxUnavailable("--network deps cannot run under runsc, whose networking is off (decision 0013)")
        return {
            "name": "runc", "requested": requested,
            "note": "--network deps needs Docker's networking, which gVisor runs with off here: ran under runc",
        }
    status = gvisor()
    if status.get("available"):
        chosen = {"name": GVISOR_RUNTIME, "requested": requested, "memory_overhead_bytes": GVISOR_MEMORY}
        if status.get("observed", {}).get("available"):
            chosen["engine_runtime"] = OBSERVED_RUNTIME  # gVisor with its trace on (decision 0044)
        return chosen
    if requested == "runsc":
        raise SandboxUnavailable(
            f"the policy runs this code under gVisor (runtime: runsc), but {status.get('reason')}: "
            f"{status.get('how', 'see docs/decisions/0013')}, or set the profile's runtime to auto"
        )
    return {"name": "runc", "requested": requested, "note": f"gVisor unavailable, ran under runc: {status.get('reason')}"}


def gvisor_death(
    oom_killed: bool, limits: ResourceLimits, peaks: Peaks, at_s: float, host_tasks: tuple[int, int] = (0, 0)
) -> Violation | None:
    """Why gVisor's sandbox ended under a running program: the memory limit, the pids limit (the host
    refused gVisor's kernel a task as the code's processes multiplied: ``host_tasks`` is the last
    reading of the host's count and of its refusals), or None (unknown)."""
    peak = int(peaks.values.get("memory_peak_bytes", 0))
    if oom_killed or (limits.memory_bytes and peak >= GVISOR_MEMORY_DEATH * limits.memory_bytes):
        return Violation("memory", peak, limits.memory_bytes, at_s)
    tasks, refused = host_tasks
    if refused > 0 or tasks >= GVISOR_TASKS_DEATH * gvisor_host_tasks(limits.pids):
        return Violation("pids", int(peaks.values.get("pids", 0)), limits.pids, at_s)
    return None


# --- gVisor's host processes ------------------------------------------------------------------

_CONTAINER_ID = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")
_RUNSC_NAMES = ("runsc", "runsc-sandbox", "runsc-gofer")


def runsc_processes() -> Iterator[tuple[psutil.Process, list[str]]]:
    """gVisor's own processes on this host: runsc, and the sandbox and gofer it starts."""
    for process in psutil.process_iter(["name", "cmdline"]):
        command = process.info.get("cmdline") or []
        if command and os.path.basename(command[0]) in _RUNSC_NAMES:
            yield process, command


def end_gvisor_processes(container_id: str) -> int:
    """Kill gVisor's processes that name this container. A start that fails under runsc leaves its
    sandbox running for minutes after Docker has forgotten the container; removing the container
    ends the rest. Returns how many were ended."""
    ended = 0
    for process, command in runsc_processes():
        if any(container_id in argument for argument in command):
            try:
                process.kill()
                ended += 1
            except psutil.Error:
                pass
    return ended


def end_gvisor_orphans(known_ids: set[str], older_than_s: float = 30.0) -> int:
    """Kill gVisor's processes whose container the engine no longer knows (after a failed start,
    or a crash of the engine), once they are older than a start could take."""
    ended = 0
    for process, command in runsc_processes():
        named = {match for argument in command for match in _CONTAINER_ID.findall(argument)}
        if not named or named & known_ids:
            continue
        try:
            if time.time() - process.create_time() < older_than_s:
                continue
            process.kill()
            ended += 1
        except psutil.Error:
            pass
    return ended
