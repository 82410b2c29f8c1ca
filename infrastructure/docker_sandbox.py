"""The Docker sandbox: one hardened, labelled, throw-away container per execution, watched live.

Every container: all capabilities dropped, no-new-privileges, user 1000:1000, read-only root
filesystem with size-limited tmpfs for /tmp, /workspace and the runner's summary, networking
disabled at create time, memory with swap equal to it, a pids limit, a CPU quota, an init that
reaps orphans. The container starts idle; the code runs in it through ``exec`` under our runner
(sandbox_runner.py), so that after the code ends the container still stands and the supervisor can
read, from outside, which files the run left and what the runner recorded, before removing it.

While the code runs, the supervisor reads the container's cgroup files every sampling interval,
hands each reading to the observer, and kills the container the moment a limit is crossed: memory
(the kernel's OOM kill), CPU time, wall time, pids (a refused fork), output size, disk (a full
tmpfs). Each container is labelled with the supervising process so that a later start can remove
what a dead supervisor left. Docker errors become SandboxUnavailable; no room on the host, HostBusy.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import socket
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import docker
import docker.errors
import psutil
import requests
from docker.utils.socket import STDERR, frames_iter

from mai_safety.application.errors import SandboxUnavailable
from mai_safety.application.ports import Observer, PreparedRun, RunOutcome, Sandbox
from mai_safety.domain.limits import HostBusy, HostPolicy, HostRoom, ResourceLimits, cap_to_host
from mai_safety.domain.supervision import Peaks, Usage, Violation, find_violation

from . import sandbox_runner
from .cgroups import CgroupReader, filesystem_use

LABEL_MANAGED = "mai-safety.managed"
LABEL_EXECUTION = "mai-safety.execution"
LABEL_SUPERVISOR = "mai-safety.supervisor"
_SETUP_HINT = "start it with `bash scripts/setup.sh` (or `dockerd &`), or set DOCKER_HOST"
_WRITABLE = ("/workspace", "/tmp")
_SUMMARY_MOUNT = "/run/mai-safety"
_RUNNER_SOURCE = Path(sandbox_runner.__file__).read_text(encoding="utf-8")
_DOCKER_ERRORS = (docker.errors.DockerException, requests.exceptions.RequestException)
_LIST_FILES = 50  # files named in the record; the rest are counted
_HASH_UP_TO = 1024 * 1024


def supervisor_label() -> str:
    """host/pid/start-time of this process: enough to tell later whether it still lives."""
    me = psutil.Process()
    return f"{socket.gethostname()}/{me.pid}/{me.create_time():.3f}"


def supervisor_gone(label: str) -> bool:
    try:
        host, pid, started = label.split("/")
        if host != socket.gethostname():
            return False  # another host's supervisor: not ours to judge
        process = psutil.Process(int(pid))
        return abs(process.create_time() - float(started)) >= 0.01
    except psutil.NoSuchProcess:
        return True
    except (ValueError, psutil.Error):
        return True


class DockerSandbox(Sandbox):
    def __init__(
        self,
        image: str,
        host_policy: HostPolicy,
        *,
        sample_interval_s: float = 0.25,
        lock_path: Path | None = None,
        work_root: Path | None = None,
    ) -> None:
        self.image = image
        self.host_policy = host_policy
        self.sample_interval_s = sample_interval_s
        self._lock_path = lock_path or Path(tempfile.gettempdir()) / "mai-safety-admission.lock"
        self._work_root = work_root
        self._client: docker.DockerClient | None = None
        self._label = supervisor_label()
        self._waiting = 0
        self._waiting_lock = threading.Lock()

    # --- engine ---------------------------------------------------------------------------

    @property
    def client(self) -> docker.DockerClient:
        if self._client is None:
            try:
                self._client = docker.from_env(timeout=60)
            except docker.errors.DockerException as exc:
                raise SandboxUnavailable(f"Docker does not answer ({_short(exc)}): {_SETUP_HINT}") from None
        return self._client

    def check_available(self) -> None:
        try:
            self.client.ping()
            self.client.images.get(self.image)
        except docker.errors.ImageNotFound:
            raise SandboxUnavailable(
                f"sandbox image {self.image} is not built: run `bash scripts/build-images.sh`"
            ) from None
        except _DOCKER_ERRORS as exc:
            raise SandboxUnavailable(f"Docker does not answer ({_short(exc)}): {_SETUP_HINT}") from None

    @property
    def supervisor_id(self) -> str:
        return self._label

    def is_orphaned(self, supervisor_id: str) -> bool:
        return supervisor_gone(supervisor_id)

    # --- admission: never overcommit the host -----------------------------------------------

    def prepare(self, execution_id: str, code: str, limits: ResourceLimits, floor: ResourceLimits) -> PreparedRun:
        with self._queue_place():
            deadline = time.monotonic() + self.host_policy.queue_wait_s
            while True:
                with self._admission_lock():
                    try:
                        fitted, host = cap_to_host(limits, floor, self._room(), self.host_policy)
                    except HostBusy:
                        if time.monotonic() >= deadline:
                            raise
                    else:
                        # Created under the lock: the next admission counts this container.
                        return self._create(execution_id, code, fitted, host)
                time.sleep(0.25)

    @contextmanager
    def _queue_place(self) -> Iterator[None]:
        with self._waiting_lock:
            if self._waiting >= self.host_policy.queue + self.host_policy.max_concurrent:
                raise HostBusy(
                    f"{self._waiting} executions already wait for room here (host.queue = {self.host_policy.queue}): "
                    "try again later"
                )
            self._waiting += 1
        try:
            yield
        finally:
            with self._waiting_lock:
                self._waiting -= 1

    @contextmanager
    def _admission_lock(self) -> Iterator[None]:
        """One admission at a time across every process on this host."""
        self._lock_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self._lock_path, "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _room(self) -> HostRoom:
        try:
            running = self.client.containers.list(filters={"label": f"{LABEL_MANAGED}=1"}, sparse=False)
        except _DOCKER_ERRORS as exc:
            raise SandboxUnavailable(f"Docker does not answer ({_short(exc)}): {_SETUP_HINT}") from None
        reserved = 0
        for container in running:
            limit = int(container.attrs.get("HostConfig", {}).get("Memory") or 0)
            used = _memory_in_use(container)
            reserved += max(limit - used, 0)
        return HostRoom(
            available_memory_bytes=psutil.virtual_memory().available,
            reserved_memory_bytes=reserved,
            cpu_count=psutil.cpu_count() or 1,
            running=len(running),
        )

    # --- one run --------------------------------------------------------------------------

    def _create(self, execution_id: str, code: str, limits: ResourceLimits, host: dict[str, Any]) -> PreparedRun:
        workdir = Path(tempfile.mkdtemp(prefix="mai-safety-", dir=self._work_root))
        try:
            for name, text in (("main.py", code), ("runner.py", _RUNNER_SOURCE)):
                path = workdir / name
                path.write_text(text, encoding="utf-8")
                path.chmod(0o444)
            workdir.chmod(0o755)
            tmpfs_options = f"rw,nosuid,nodev,size={limits.tmpfs_bytes}"
            container = self.client.containers.create(
                self.image,
                command=["sleep", "infinity"],
                init=True,
                user="1000:1000",
                working_dir="/workspace",
                cap_drop=["ALL"],
                security_opt=["no-new-privileges:true"],
                read_only=True,
                tmpfs={
                    "/tmp": f"{tmpfs_options},noexec,mode=1777",
                    "/workspace": f"{tmpfs_options},uid=1000,gid=1000,mode=0700",
                    _SUMMARY_MOUNT: "rw,nosuid,nodev,noexec,size=1m,uid=1000,gid=1000,mode=0700",
                },
                network_disabled=True,
                mem_limit=limits.memory_bytes,
                memswap_limit=limits.memory_bytes,
                pids_limit=limits.pids + 2,  # the init and the idle process are ours, not the code's
                nano_cpus=int(limits.cpus * 1e9),
                ipc_mode="none",
                volumes={str(workdir): {"bind": "/sandbox", "mode": "ro"}},
                labels={LABEL_MANAGED: "1", LABEL_EXECUTION: execution_id, LABEL_SUPERVISOR: self._label},
                log_config={"type": "none"},
                detach=True,
            )
            container.start()
            container.reload()
        except docker.errors.ImageNotFound:
            shutil.rmtree(workdir, ignore_errors=True)
            raise SandboxUnavailable(
                f"sandbox image {self.image} is not built: run `bash scripts/build-images.sh`"
            ) from None
        except _DOCKER_ERRORS as exc:
            shutil.rmtree(workdir, ignore_errors=True)
            raise SandboxUnavailable(f"Docker refused to create the sandbox ({_short(exc)})") from None
        return PreparedRun(
            container_id=container.id, image=self.image, limits=limits, host=host, handle=(container, workdir)
        )

    def run(self, prepared: PreparedRun, observer: Observer) -> RunOutcome:
        container, _workdir = prepared.handle
        limits = prepared.limits
        pid = int(container.attrs["State"]["Pid"])
        try:
            cgroup = CgroupReader(pid)
            exec_id = self.client.api.exec_create(
                container.id,
                ["python3", "-I", "/sandbox/runner.py"],
                user="1000:1000",
                workdir="/workspace",
                environment={"HOME": "/workspace", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"},
            )["Id"]
            attached = self.client.api.exec_start(exec_id, socket=True)
        except (OSError, *_DOCKER_ERRORS) as exc:
            raise SandboxUnavailable(f"Docker failed to start the code ({_short(exc)})") from None
        capture = _Capture(limits.output_bytes)
        reader = threading.Thread(target=capture.consume, args=(attached,), daemon=True)
        started = time.monotonic()
        reader.start()
        peaks = Peaks()
        violation: Violation | None = None
        cancelled = False
        while True:
            remaining = limits.timeout_s - (time.monotonic() - started)
            ended = capture.stop.wait(max(min(self.sample_interval_s, remaining), 0))
            usage = self._usage(cgroup, pid, limits, capture, time.monotonic() - started)
            peaks.add(usage)
            violation = find_violation(limits, usage)
            if violation is not None:
                break
            if ended:
                break
            if not observer(usage):
                cancelled = True
                break
        elapsed = time.monotonic() - started
        if violation is not None or cancelled:
            _kill(container)
        reader.join(30)
        if violation is None and not cancelled:
            # The program ended by itself: one last reading catches an OOM kill in its final moments.
            final = self._usage(cgroup, pid, limits, capture, elapsed)
            peaks.add(final)
            late = find_violation(limits, final)
            if late is not None and late.reason in ("memory", "pids", "disk", "output_limit"):
                violation = late
        observations = {} if violation is not None or cancelled else self._observe(pid)
        exit_code = self._exit_code(exec_id)
        _kill(container)
        reason = "cancelled" if cancelled else (violation.reason if violation else None)
        return RunOutcome(
            exit_code=exit_code,
            stdout=capture.text("stdout"),
            stderr=capture.text("stderr"),
            output_bytes=capture.total,
            output_truncated=capture.overflowed,
            duration_s=elapsed,
            termination_reason=reason,
            detail=violation.detail if violation else ("cancelled" if cancelled else ""),
            violation=violation.to_dict() if violation else None,
            peaks=peaks.to_dict(),
            observations=observations,
        )

    def _usage(self, cgroup: CgroupReader, pid: int, limits: ResourceLimits, capture: "_Capture", elapsed: float) -> Usage:
        try:
            counters = cgroup.read()
        except (OSError, ValueError):
            counters = None
        disk_used, disk_full = 0, False
        for mount in _WRITABLE:
            try:
                used, size = filesystem_use(pid, mount)
            except OSError:
                continue
            disk_used += used
            disk_full = disk_full or (size > 0 and size - used < 64 * 1024)
        return Usage(
            elapsed_s=elapsed,
            cpu_seconds=counters.cpu_seconds if counters else 0.0,
            memory_bytes=counters.memory_bytes if counters else 0,
            memory_peak_bytes=counters.memory_peak_bytes if counters else 0,
            pids=max((counters.pids if counters else 0) - 2, 0),
            disk_bytes=disk_used,
            disk_full=disk_full,
            output_bytes=capture.total,
            oom_kills=counters.oom_kills if counters else 0,
            pids_limit_hits=counters.pids_limit_hits if counters else 0,
            io_read_bytes=counters.io_read_bytes if counters else 0,
            io_write_bytes=counters.io_write_bytes if counters else 0,
        )

    def _observe(self, pid: int) -> dict[str, Any]:
        """What the run left in its writable areas, and what the runner recorded it attempting."""
        files: list[dict[str, Any]] = []
        count = total = 0
        root = Path(f"/proc/{pid}/root")
        for mount in _WRITABLE:
            for directory, _dirs, names in os.walk(root / mount.lstrip("/")):
                for name in names:
                    path = Path(directory) / name
                    try:
                        size = path.lstat().st_size
                    except OSError:
                        continue
                    count += 1
                    total += size
                    if len(files) < _LIST_FILES:
                        entry: dict[str, Any] = {"path": "/" + str(path.relative_to(root)), "bytes": size}
                        if size <= _HASH_UP_TO and path.is_file() and not path.is_symlink():
                            try:
                                entry["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
                            except OSError:
                                pass
                        files.append(entry)
        audit: Any = None
        try:
            audit = json.loads((root / _SUMMARY_MOUNT.lstrip("/") / "audit.json").read_text())
        except (OSError, ValueError):
            audit = {"unavailable": "the runner left no summary (it was killed, crashed or silenced)"}
        return {"files_created": {"count": count, "bytes": total, "first": files}, "attempted": audit}

    def _exit_code(self, exec_id: str) -> int | None:
        for _ in range(50):
            try:
                state = self.client.api.exec_inspect(exec_id)
            except _DOCKER_ERRORS:
                return None
            if not state.get("Running"):
                return state.get("ExitCode")
            time.sleep(0.02)
        return None

    def discard(self, prepared: PreparedRun) -> None:
        container, workdir = prepared.handle
        try:
            container.remove(force=True)
        except docker.errors.NotFound:
            pass
        except _DOCKER_ERRORS:
            pass  # remove_leftovers() finds it by label on the next start
        shutil.rmtree(workdir, ignore_errors=True)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    # --- cleaning up after others ---------------------------------------------------------------

    def remove_execution(self, execution_id: str) -> int:
        return self._remove({"label": [f"{LABEL_MANAGED}=1", f"{LABEL_EXECUTION}={execution_id}"]}, lambda _: True)

    def remove_leftovers(self) -> int:
        return self._remove(
            {"label": f"{LABEL_MANAGED}=1"}, lambda container: supervisor_gone(container.labels.get(LABEL_SUPERVISOR, ""))
        )

    def _remove(self, filters: dict[str, Any], condition: Any) -> int:
        removed = 0
        try:
            for container in self.client.containers.list(all=True, filters=filters):
                if condition(container):
                    try:
                        container.remove(force=True)
                        removed += 1
                    except docker.errors.NotFound:
                        pass
        except _DOCKER_ERRORS as exc:
            raise SandboxUnavailable(f"Docker does not answer ({_short(exc)}): {_SETUP_HINT}") from None
        return removed


class _Capture:
    """Keeps stdout and stderr up to a shared byte cap and counts the rest.

    ``stop`` is set when the stream ends or the cap is first passed; past the cap the stream is
    drained and dropped until the container is gone (the engine cannot act on a kill while its
    writes to us block).
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.total = 0
        self.overflowed = False
        self.stop = threading.Event()
        self._kept = {"stdout": bytearray(), "stderr": bytearray()}

    def consume(self, attached: Any) -> None:
        try:
            for stream_id, chunk in frames_iter(attached, tty=False):
                if chunk:
                    self._take("stderr" if stream_id == STDERR else "stdout", chunk)
        except (OSError, *_DOCKER_ERRORS):
            pass  # the stream ends when the container dies; the outcome comes from its state
        finally:
            self.stop.set()
            _close_attached(attached)

    def _take(self, name: str, chunk: bytes) -> None:
        room = self.cap - self.total
        self.total += len(chunk)
        if room > 0:
            self._kept[name] += chunk[:room]
        if self.total > self.cap and not self.overflowed:
            self.overflowed = True
            self.stop.set()

    def text(self, name: str) -> str:
        return self._kept[name].decode("utf-8", errors="replace")


def _memory_in_use(container: Any) -> int:
    try:
        return CgroupReader(int(container.attrs["State"]["Pid"])).read().memory_bytes
    except (OSError, ValueError, KeyError):
        return 0


def _close_attached(attached: Any) -> None:
    """Close the hijacked connection for good: the HTTP layer keeps extra references to its socket,
    so closing the file object alone would leave the descriptor open."""
    raw = getattr(attached, "_sock", None)
    try:
        attached.close()
    except OSError:
        pass
    if isinstance(raw, socket.socket) and raw.fileno() >= 0:
        try:
            raw.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        os.close(raw.detach())


def _kill(container: Any) -> None:
    try:
        container.kill()
    except _DOCKER_ERRORS:
        pass  # already gone


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]
