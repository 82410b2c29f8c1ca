"""The Docker sandbox: one hardened, labelled, throw-away container per execution.

Every container: all capabilities dropped, no-new-privileges, user 1000:1000, read-only root
filesystem with size-limited tmpfs for /tmp and /workspace, networking disabled at create time,
memory with swap equal to it, a pids limit, a CPU quota. The code is bind-mounted read-only.
Output is read live from the attach stream and the container is killed the moment the output cap
or the wall-clock limit is crossed. Each container is labelled with the supervising process, so a
later start removes what a crashed supervisor left behind. Docker errors become SandboxUnavailable.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import docker
import docker.errors
import psutil
import requests
from docker.utils.socket import STDERR, frames_iter

from mai_safety.application.errors import SandboxUnavailable
from mai_safety.application.ports import PreparedRun, RunOutcome, Sandbox
from mai_safety.domain.limits import ResourceLimits

LABEL_MANAGED = "mai-safety.managed"
LABEL_EXECUTION = "mai-safety.execution"
LABEL_SUPERVISOR = "mai-safety.supervisor"
_SETUP_HINT = "start it with `bash scripts/setup.sh` (or `dockerd &`), or set DOCKER_HOST"


def supervisor_label() -> str:
    """host/pid/start-time of this process: enough to tell later whether it still lives."""
    me = psutil.Process()
    return f"{socket.gethostname()}/{me.pid}/{me.create_time():.3f}"


def _supervisor_alive(label: str) -> bool:
    try:
        host, pid, started = label.split("/")
        if host != socket.gethostname():
            return True  # not ours to judge
        process = psutil.Process(int(pid))
        return abs(process.create_time() - float(started)) < 0.01
    except (ValueError, psutil.Error):
        return False


class DockerSandbox(Sandbox):
    def __init__(self, image: str, work_root: Path | None = None) -> None:
        self.image = image
        self._work_root = work_root
        self._client: docker.DockerClient | None = None
        self._label = supervisor_label()

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
        except (docker.errors.DockerException, requests.exceptions.RequestException) as exc:
            raise SandboxUnavailable(f"Docker does not answer ({_short(exc)}): {_SETUP_HINT}") from None

    # --- one run --------------------------------------------------------------------------

    def prepare(self, execution_id: str, code: str, limits: ResourceLimits) -> PreparedRun:
        workdir = Path(tempfile.mkdtemp(prefix="mai-safety-", dir=self._work_root))
        try:
            program = workdir / "main.py"
            program.write_text(code, encoding="utf-8")
            program.chmod(0o444)
            workdir.chmod(0o755)
            container = self.client.containers.create(
                self.image,
                command=["python3", "-I", "/sandbox/main.py"],
                user="1000:1000",
                working_dir="/workspace",
                environment={"HOME": "/workspace", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"},
                cap_drop=["ALL"],
                security_opt=["no-new-privileges:true"],
                read_only=True,
                tmpfs={
                    "/tmp": f"rw,nosuid,nodev,noexec,size={limits.tmpfs_bytes},mode=1777",
                    "/workspace": f"rw,nosuid,nodev,size={limits.tmpfs_bytes},uid=1000,gid=1000,mode=0700",
                },
                network_disabled=True,
                mem_limit=limits.memory_bytes,
                memswap_limit=limits.memory_bytes,
                pids_limit=limits.pids,
                nano_cpus=int(limits.cpus * 1e9),
                ipc_mode="none",
                volumes={str(workdir): {"bind": "/sandbox", "mode": "ro"}},
                labels={LABEL_MANAGED: "1", LABEL_EXECUTION: execution_id, LABEL_SUPERVISOR: self._label},
                log_config={"type": "none"},
                detach=True,
            )
        except docker.errors.ImageNotFound:
            shutil.rmtree(workdir, ignore_errors=True)
            raise SandboxUnavailable(
                f"sandbox image {self.image} is not built: run `bash scripts/build-images.sh`"
            ) from None
        except (docker.errors.DockerException, requests.exceptions.RequestException) as exc:
            shutil.rmtree(workdir, ignore_errors=True)
            raise SandboxUnavailable(f"Docker refused to create the sandbox ({_short(exc)})") from None
        return PreparedRun(container_id=container.id, image=self.image, handle=(container, workdir))

    def run(self, prepared: PreparedRun, limits: ResourceLimits) -> RunOutcome:
        container, _workdir = prepared.handle
        try:
            attached = self.client.api.attach_socket(container.id, params={"stdout": 1, "stderr": 1, "stream": 1})
            capture = _Capture(limits.output_bytes)
            reader = threading.Thread(target=capture.consume, args=(attached,), daemon=True)
            reader.start()
            started = time.monotonic()
            container.start()
            # Wake at the end of the output, at the output cap, or at the wall-clock limit. The reader
            # keeps draining after the cap: the engine cannot act on a kill while its writes block.
            capture.stop.wait(limits.timeout_s)
            timed_out = not capture.stop.is_set()
            if timed_out or capture.overflowed:
                _kill(container)
            reader.join(30)
            elapsed = time.monotonic() - started
            status = container.wait(timeout=30)
            container.reload()
            state = container.attrs.get("State", {})
        except (docker.errors.DockerException, requests.exceptions.RequestException) as exc:
            raise SandboxUnavailable(f"Docker failed during the run ({_short(exc)})") from None
        exit_code = status.get("StatusCode")
        reason, detail = None, ""
        if capture.overflowed:
            reason, detail = "output_limit", f"output passed {limits.output_bytes} bytes"
        elif timed_out:
            reason, detail = "timeout", f"still running after {limits.timeout_s:g} s"
        elif state.get("OOMKilled"):
            reason, detail = "memory", f"out of memory at the {limits.memory_bytes}-byte limit"
        return RunOutcome(
            exit_code=exit_code,
            stdout=capture.text("stdout"),
            stderr=capture.text("stderr"),
            output_bytes=capture.total,
            output_truncated=capture.overflowed,
            duration_s=_container_duration(state) or elapsed,
            termination_reason=reason,
            detail=detail,
        )

    def discard(self, prepared: PreparedRun) -> None:
        container, workdir = prepared.handle
        try:
            container.remove(force=True)
        except docker.errors.NotFound:
            pass
        except (docker.errors.DockerException, requests.exceptions.RequestException):
            pass  # remove_leftovers() finds it by label on the next start
        shutil.rmtree(workdir, ignore_errors=True)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def remove_leftovers(self) -> int:
        removed = 0
        try:
            containers = self.client.containers.list(all=True, filters={"label": f"{LABEL_MANAGED}=1"})
            for container in containers:
                if not _supervisor_alive(container.labels.get(LABEL_SUPERVISOR, "")):
                    container.remove(force=True)
                    removed += 1
        except docker.errors.NotFound:
            pass
        except (docker.errors.DockerException, requests.exceptions.RequestException) as exc:
            raise SandboxUnavailable(f"Docker does not answer ({_short(exc)}): {_SETUP_HINT}") from None
        return removed


class _Capture:
    """Keeps stdout and stderr up to a shared byte cap and counts the rest.

    ``stop`` is set when the stream ends or the cap is first passed; past the cap the stream is
    drained and dropped until the container is gone.
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
        except (docker.errors.DockerException, requests.exceptions.RequestException, OSError):
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


def _close_attached(attached: Any) -> None:
    """Close the hijacked attach connection for good: the HTTP layer keeps extra references to its
    socket, so closing the file object alone would leave the descriptor open."""
    raw = getattr(attached, "_sock", None)
    attached.close()
    if isinstance(raw, socket.socket) and raw.fileno() >= 0:
        try:
            raw.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        os.close(raw.detach())


def _kill(container: Any) -> None:
    try:
        container.kill()
    except (docker.errors.DockerException, requests.exceptions.RequestException):
        pass  # already gone


def _container_duration(state: dict[str, Any]) -> float | None:
    try:
        started = _parse_time(state["StartedAt"])
        finished = _parse_time(state["FinishedAt"])
    except (KeyError, ValueError):
        return None
    seconds = (finished - started).total_seconds()
    return seconds if seconds >= 0 else None


def _parse_time(text: str) -> datetime:
    # Docker gives nanoseconds; datetime takes microseconds.
    head, _, rest = text.partition(".")
    fraction = "".join(ch for ch in rest if ch.isdigit())[:6]
    return datetime.fromisoformat(f"{head}.{fraction or '0'}+00:00")


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]


