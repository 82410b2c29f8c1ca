"""A session's container and its live interpreter (issue #27, decision 0040).

One container per session, made for it alone (never pooled, never given to another session),
hardened exactly as a run's (``containers.hardened``: no capabilities, read-only root, the keeper's
and the code's uids, memory, pids, CPUs, tmpfs), under the runtime the session's trust profile
names (gVisor for untrusted code). Its main process is the session keeper
(payload/session_keeper.py), connected to a socket in the container's host folder: it ends the
container at the session's lifetime, or as soon as this process lets go of it (ended, or died).

The interpreter (payload/interpreter.py) is started by exec as the code's uid and reaches this
process the way a primed pool runner does (primed.py): a socket in the container's own host folder
that stops listening once it is connected. A cell past its wall clock, or one that ends the
interpreter, ends every process of the code's uid; a new interpreter is then started on a new
socket, and the working directory is kept.
"""

from __future__ import annotations

import base64
import json
import math
import shutil
import socket
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from mai_safety.application.errors import SandboxUnavailable
from mai_safety.application.sessions import CellResult, LiveInterpreter, SessionSandbox
from mai_safety.domain.files import FileBounds
from mai_safety.domain.limits import ResourceLimits
from mai_safety.domain.network import NetworkRequest

from . import payload
from .cgroups import CgroupReader
from .containers import (
    CODE_USER,
    LABEL_MANAGED,
    LABEL_SUPERVISOR,
    RUNNER_SOURCE,
    hardened,
    ledger_labels,
    supervisor_gone,
    write_files,
)
from .errors import BestEffort, engine_answers, refused
from .primed import CODE_ENVIRONMENT
from .runtimes import GVISOR_RUNTIME, end_gvisor_processes
from .workspace import RunWorkspace, collect_limits, collected_inside

#: The label that binds a container to its session (recovery and the sweep find it by it).
LABEL_SESSION = "mai-safety.session"
CELLS_SOCKET = "cells.sock"
KEEPER_SOCKET = "keeper.sock"
INTERPRETER_COMMAND = ["python3", "-I", "/sandbox/interpreter.py"]
#: Every process of the code's uid, ended by one of its own (kill(-1) spares the caller only).
END_CODE_PROCESSES = ["python3", "-I", "-S", "-c", "import os, signal; os.kill(-1, signal.SIGKILL)"]
CONNECT_S = 20.0
#: How long ending the code's processes may take before the next interpreter is started anyway.
END_CODE_PROCESSES_S = 5.0
#: How long a crashed interpreter's exit status is waited for before the cell is reported without it.
CRASH_STATUS_S = 1.0
#: Who read a cell's output files: the interpreter, in the process that ran the code.
FILES_THROUGH = "by the session's interpreter, in the process that ran the cell (self-reported)"
SESSION_FILES = {
    "runner.py": RUNNER_SOURCE,
    "interpreter.py": payload.source("interpreter.py"),
    "session_keeper.py": payload.source("session_keeper.py"),
}


class DockerInterpreter(LiveInterpreter):
    """A session's container, its keeper's connection, and its interpreter's."""

    def __init__(
        self, client: Any, container: Any, workdir: Path, keeper: socket.socket, image: str, runtime: str, bounds: FileBounds | None = None
    ) -> None:
        self.client = client
        self.container = container
        self.container_id = str(container.id)
        self._cgroup = _cgroup_of(container)
        self.workdir = workdir
        self.keeper = keeper
        self.image = image
        self.runtime = runtime
        self.exec_id = ""
        self.channel: socket.socket | None = None
        self.cells = 0
        #: How many and how large the files a cell created or changed may be, kept (policy ``files:``).
        self.bounds = bounds or FileBounds()

    def start_interpreter(self) -> None:
        """A new interpreter, connected on a new socket that stops listening once it is."""
        path = self.workdir / CELLS_SOCKET
        path.unlink(missing_ok=True)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(str(path))
            path.chmod(0o666)  # the interpreter is uid 1000 inside; the folder is read-only to it
            listener.listen(1)
            listener.settimeout(CONNECT_S)
            with refused("the session's interpreter did not start", also=(OSError,)):
                self.exec_id = self.client.api.exec_create(
                    self.container_id, INTERPRETER_COMMAND, user=CODE_USER, workdir="/workspace",
                    environment=CODE_ENVIRONMENT, stdout=False, stderr=False,
                )["Id"]
                self.client.api.exec_start(self.exec_id, detach=True)
                self.channel, _ = listener.accept()
        finally:
            listener.close()
            path.unlink(missing_ok=True)

    def run_cell(self, code: str, files: dict[str, bytes], timeout_s: float, cpu_s: float, max_output: int) -> CellResult:
        if self.channel is None:
            self.start_interpreter()
        assert self.channel is not None
        self.cells += 1
        order = {
            "code": code, "files": {name: base64.b64encode(data).decode() for name, data in files.items()},
            "cpu_s": cpu_s, "wall_s": timeout_s, "max_output": max_output, "number": self.cells,
            "bounds": collect_limits(self.bounds),
        }
        started = time.monotonic()
        try:
            self.channel.settimeout(timeout_s + INTERRUPT_GRACE_S)
            self.channel.sendall(json.dumps(order).encode("utf-8") + b"\n")
            line = _read_line(self.channel, started + timeout_s + INTERRUPT_GRACE_S)
        except TimeoutError:
            self._end_code_processes()
            return CellResult("timeout", None, "", "", False, time.monotonic() - started, None,
                              f"the cell ran past its wall clock of {timeout_s:g} s; its interpreter was ended")
        except OSError as error:
            line = b""
            detail = f"the interpreter's connection failed: {error}"
        else:
            detail = ""
        if not line:
            return self._crashed(started, detail)
        answer = json.loads(line)
        elapsed = time.monotonic() - started
        # Interrupted at its wall clock in its interpreter (which keeps its state): the interpreter
        # says so, and this side's clock must agree; a cell cannot call itself interrupted early.
        interrupted = bool(answer.get("wall_clock")) and elapsed >= timeout_s
        # The files the cell created or changed, as its interpreter sent them: taken as the code's
        # word (each name checked again, each file held to the bounds again), and said to be so.
        collected = collected_inside(answer.get("files_out"), RunWorkspace(self.bounds, files))
        collected.through = FILES_THROUGH
        return CellResult(
            "interrupted" if interrupted else "completed", int(answer.get("status", 1)), answer.get("stdout", ""),
            answer.get("stderr", ""), bool(answer.get("truncated")), float(answer.get("duration_s", 0.0)),
            list(answer.get("manifest", [])),
            f"the cell ran past its wall clock of {timeout_s:g} s; it was interrupted in its interpreter, which keeps its state"
            if interrupted else "",
            tuple(collected.files), collected.record(),
        )

    def _crashed(self, started: float, detail: str) -> CellResult:
        """The interpreter ended mid-cell: how, as far as the engine tells."""
        exit_code = None
        with BestEffort():
            state = self._once_ended(self.exec_id, CRASH_STATUS_S, every_s=0.05)
            exit_code = state.get("ExitCode") if state is not None else None
        why = {137: "killed (SIGKILL: memory, or the code)", 152: "past its CPU time (SIGXCPU)", 139: "a segmentation fault"}
        said = why.get(exit_code or 0, f"exit status {exit_code}")
        self._end_code_processes()
        return CellResult("crashed", exit_code, "", "", False, time.monotonic() - started, None,
                          detail or f"the interpreter ended during the cell: {said}")

    def _end_code_processes(self) -> None:
        """Every process of the code's uid (the interpreter and all it started); the next cell gets a new interpreter."""
        if self.channel is not None:
            self.channel.close()
            self.channel = None
        with BestEffort():
            exec_id = self.client.api.exec_create(self.container_id, END_CODE_PROCESSES, user=CODE_USER, stdout=False, stderr=False)["Id"]
            self.client.api.exec_start(exec_id)
            # The engine answers that start at once, as nothing of its output is attached: until the
            # kill has run, an interpreter started next would be killed with the old one (the
            # session then lost at CONNECT_S, as it was about one time in three on a slower machine).
            self._once_ended(exec_id, END_CODE_PROCESSES_S, every_s=0.01)

    def _once_ended(self, exec_id: str, bound_s: float, every_s: float) -> dict[str, Any] | None:
        """The exec's state once the engine says it ended (not running, its exit status known),
        asked every ``every_s``; None if it still ran after ``bound_s``."""
        deadline = time.monotonic() + bound_s
        while True:
            state: dict[str, Any] = self.client.api.exec_inspect(exec_id)
            if not state.get("Running") and state.get("ExitCode") is not None:
                return state
            if time.monotonic() >= deadline:
                return None
            time.sleep(every_s)

    def restart(self) -> None:
        self._end_code_processes()
        self.start_interpreter()

    def alive(self) -> bool:
        try:
            self.container.reload()
        except Exception:  # noqa: BLE001 - gone, or Docker does not answer: not alive to this session
            return False
        return bool(self.container.status == "running")

    def cpu_used_s(self) -> float | None:
        if self._cgroup is None:
            return None
        try:
            return self._cgroup.cpu_seconds()
        except (OSError, ValueError):
            return None

    def close(self) -> None:
        if self.channel is not None:
            self.channel.close()
        self.keeper.close()  # the keeper ends the container if the removal below does not
        with BestEffort():
            self.container.remove(force=True)
        if self.runtime == GVISOR_RUNTIME:
            end_gvisor_processes(self.container_id)
        shutil.rmtree(self.workdir, ignore_errors=True)


#: How long past a cell's wall clock its interpreter has to answer once it interrupted the cell
#: itself; then the interpreter is ended from outside.
INTERRUPT_GRACE_S = 1.0


def _read_line(channel: socket.socket, deadline: float) -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        channel.settimeout(left)
        chunk = channel.recv(1 << 20)
        if not chunk:
            return b""
        data += chunk
    return data


class DockerSessions(SessionSandbox):
    """Makes sessions' containers through the run sandbox's engine, folder and labels."""

    def __init__(self, sandbox: Any) -> None:
        self.sandbox = sandbox

    @property
    def holder(self) -> str:
        return str(self.sandbox.supervisor_id)

    def is_orphaned(self, holder: str) -> bool:
        return supervisor_gone(holder)

    def open(
        self, session_id: str, image: str, limits: ResourceLimits, runtime: str, lifetime_s: float, total_cpu_s: float
    ) -> LiveInterpreter:
        tag = self.sandbox.image if image == "default" else self.sandbox.images.get(image)
        if tag is None:
            raise SandboxUnavailable(f"this sandbox has no image named {image!r} (images: in policies/limits.yaml)")
        chosen = self.sandbox.choose_runtime(runtime, NetworkRequest())
        gvisor = chosen["name"] == GVISOR_RUNTIME
        client = self.sandbox.client
        workdir = Path(tempfile.mkdtemp(prefix=f"session-{session_id[:8]}-", dir=self.sandbox.work_root))
        labels = {LABEL_MANAGED: "1", LABEL_SUPERVISOR: self.holder, LABEL_SESSION: session_id, **ledger_labels(self.sandbox.ledger_identity())}
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        container = None
        try:
            with refused("Docker refused to create the session's container", also=(OSError,)):
                write_files(workdir, SESSION_FILES)
                listener.bind(str(workdir / KEEPER_SOCKET))
                (workdir / KEEPER_SOCKET).chmod(0o666)  # the keeper is uid 1001 inside
                listener.listen(1)
                workdir.chmod(0o755)
                container = client.containers.create(
                    tag, command=["python3", "-I", "-S", "/sandbox/session_keeper.py", str(math.ceil(lifetime_s))],
                    # RLIMIT_CPU at the session's total: the interpreter lowers its soft limit to each cell's.
                    **hardened(
                        replace(limits, cpu_seconds=total_cpu_s), gvisor, chosen, labels,
                        {str(workdir): {"bind": "/sandbox", "mode": "ro"}}, {}, cpu_rlimit=True,
                    ),
                    network_disabled=True,
                )
                container.start()
                listener.settimeout(CONNECT_S)
                keeper, _ = listener.accept()
            interpreter = DockerInterpreter(client, container, workdir, keeper, tag, chosen["name"], self.sandbox.file_bounds)
            interpreter.start_interpreter()
            return interpreter
        except BaseException:
            if container is not None:
                with BestEffort():
                    container.remove(force=True)
            shutil.rmtree(workdir, ignore_errors=True)
            raise
        finally:
            listener.close()
            (workdir / KEEPER_SOCKET).unlink(missing_ok=True)

    def remove_session(self, session_id: str) -> int:
        """Remove a session's containers, whoever made them (recovery, the caller's end)."""
        removed = 0
        with engine_answers():
            found = self.sandbox.client.containers.list(all=True, filters={"label": [f"{LABEL_MANAGED}=1", f"{LABEL_SESSION}={session_id}"]})
        for container in found:
            with BestEffort():
                container.remove(force=True)
                removed += 1
        return removed


def _cgroup_of(container: Any) -> CgroupReader | None:
    """The started container's cgroup, read from outside the code (None: it cannot be found)."""
    try:
        container.reload()
        return CgroupReader(int(container.attrs["State"]["Pid"]))
    except Exception:  # noqa: BLE001 - gone, Docker not answering, or no cgroup to read: not known
        return None
