"""A runner started ahead of its run in a pool container (decision 0015, amended).

Starting a command in a running container (``exec``) costs the engine about 45 ms under runc on
these hosts, and the interpreter's start about 10 ms more: most of a pooled run's path once the
container itself is made ahead. So the filler also starts the runner ahead, by the same exec as a
run would (the code's uid, its working folder, its environment), and keeps the exec's attached
output stream. The runner (payload/runner.py ``--primed``) connects to a socket in the container's
own host folder and waits, with no code and nothing to read, for one line: the run's CPU-time and
task limits, which it sets on itself (it can lower them, never raise them) before it reads the code
and starts as any runner does. The socket stops listening once the runner is connected, and the
runner closes its end before the code starts, so the code reaches neither.

A runner that cannot be primed, or that is gone when its run comes, costs nothing but the fallback:
the run's command is started by exec as before.

Under gVisor the keeper's watch (payload/watch.py) is started ahead too (``prime_watch``): an exec
there costs ~80 ms of runsc, and made beside the run it took ~70 ms from the run itself (measured:
a pooled gVisor run 279 ms with it, 207 ms without). It runs as the keeper's uid (1001), which the
code (1000) can neither signal nor trace, and waits on its own standard input, the exec's stream,
for ``go INTERVAL``; one that cannot be primed or is gone is started by exec at the run, as before.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import select
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docker.utils.socket import STDOUT, frames_iter

from .capture import OutputCapture, close_attached
from .containers import CODE_USER, KEEPER_USER
from .errors import BestEffort

GO_SOCKET = "go.sock"
#: The environment of the code's own command (supervision.py's, without ``--network deps``).
CODE_ENVIRONMENT = {"HOME": "/workspace", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}
PRIMED_COMMAND = ["python3", "-I", "/sandbox/runner.py", "--primed"]
PRIMED_WATCH = ["python3", "-I", "-S", "/sandbox/watch.py", "--primed"]
PRIMED_SURVEY = ["python3", "-I", "-S", "/sandbox/survey.py", "--primed"]
#: How long the filler waits for a primed survey to read its key and say it is ready.
SURVEY_READY_S = 15.0
#: How long a primed survey may take once it is given its go: past it, the survey is made by exec.
PRIMED_SURVEY_S = 10.0
#: How long the filler waits for a primed runner to connect.
CONNECT_S = 15.0


@dataclass
class PrimedRunner:
    """The exec of a waiting runner, its attached output, and the connection it waits on."""

    exec_id: str
    attached: Any
    go: socket.socket

    def start(self, cpu_rlimit: tuple[int, int] | None, nproc: int | None) -> bool:
        """Send the run's limits: the runner sets them, then runs the code. False if it is gone."""
        order = {"cpu": list(cpu_rlimit) if cpu_rlimit else None, "nproc": nproc}
        try:
            self.go.sendall(json.dumps(order).encode() + b"\n")
            return True
        except OSError:
            return False
        finally:
            self.go.close()

    def close(self) -> None:
        """Unused: the runner ends when its connection does."""
        self.go.close()
        close_attached(self.attached)


def prime(client: Any, container: Any, workdir: Path) -> PrimedRunner | None:
    """Start a waiting runner in a started pool container; None if it did not connect."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    attached = None
    try:
        path = workdir / GO_SOCKET
        listener.bind(str(path))
        path.chmod(0o666)  # the runner is uid 1000 inside; the folder itself is read-only to it
        listener.listen(1)
        listener.settimeout(CONNECT_S)
        with BestEffort(OSError) as attempt:
            exec_id = client.api.exec_create(
                container.id, PRIMED_COMMAND, user=CODE_USER, workdir="/workspace", environment=CODE_ENVIRONMENT
            )["Id"]
            attached = client.api.exec_start(exec_id, socket=True)
            go, _ = listener.accept()
        if attempt.failed:
            if attached is not None:
                close_attached(attached)
            return None
        return PrimedRunner(exec_id=exec_id, attached=attached, go=go)
    finally:
        listener.close()  # one connection, the runner's: nothing in the container reaches it after


@dataclass
class PrimedWatch:
    """The exec of a waiting watch (under gVisor) and its attached stream, its input too."""

    exec_id: str
    attached: Any

    def start(self, interval_s: float) -> bool:
        """Send the go line with the sampling interval; False if the watch is gone."""
        try:
            self.attached._sock.sendall(f"go {interval_s:g}\n".encode())
            return True
        except (OSError, AttributeError):
            self.close()
            return False

    def close(self) -> None:
        close_attached(self.attached)


def prime_watch(client: Any, container: Any) -> PrimedWatch | None:
    """Start the keeper's watch, waiting for its run, in a started gVisor pool container."""
    with BestEffort(OSError) as attempt:
        exec_id = client.api.exec_create(container.id, PRIMED_WATCH, user=KEEPER_USER, workdir="/", stdin=True)["Id"]
        attached = client.api.exec_start(exec_id, socket=True)
    if attempt.failed:
        return None
    return PrimedWatch(exec_id=exec_id, attached=attached)


@dataclass
class PrimedSurvey:
    """The exec of a survey waiting in a gVisor pool container (payload/survey.py ``--primed``), its
    attached stream, and the key it read before any code ran there."""

    exec_id: str
    attached: Any
    key: bytes

    def run(self, cap: int) -> tuple[dict[str, Any] | None, str]:
        """Send the go with a fresh nonce and read the record back: the record if it carries the
        nonce and the key's MAC, else None and why. It waited beside the code as the code's uid,
        which gVisor lets write to its standard input and output: a record is believed only when
        it is proven to be the survey's."""
        nonce = secrets.token_hex(16)
        try:
            self.attached._sock.sendall(f"go {nonce}\n".encode())
        except (OSError, AttributeError):
            self.close()
            return None, "it was gone"
        capture = OutputCapture(cap)
        reader = threading.Thread(target=capture.consume, args=(self.attached,), daemon=True)
        reader.start()
        reader.join(PRIMED_SURVEY_S)
        if reader.is_alive() or capture.overflowed:
            self.close()
            return None, f"it did not end within {PRIMED_SURVEY_S:g} s or wrote more than it may"
        lines = [line for line in capture.text("stdout").split("\n") if line]
        if len(lines) < 2:
            return None, "it ended without its record"
        line, mark = lines[-2], lines[-1]
        expected = hmac.new(self.key, line.encode(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, mark):
            return None, "its record did not carry the key's MAC"
        try:
            signed = json.loads(line)
            record = signed["record"]
            if signed["nonce"] != nonce or not isinstance(record, dict):
                raise ValueError
        except (ValueError, KeyError, TypeError):
            return None, "its record answered another go"
        return record, ""

    def close(self) -> None:
        close_attached(self.attached)


def prime_survey(client: Any, container: Any) -> PrimedSurvey | None:
    """Start the survey, waiting for its run, in a started gVisor pool container: give it its key
    and wait until it says it read it (so no code can be there to read it first)."""
    key = secrets.token_hex(32).encode()
    attached = None
    with BestEffort(OSError, ValueError) as attempt:
        exec_id = client.api.exec_create(container.id, PRIMED_SURVEY, user=CODE_USER, workdir="/", stdin=True)["Id"]
        attached = client.api.exec_start(exec_id, socket=True)
        attached._sock.sendall(key + b"\n")
        deadline = time.monotonic() + SURVEY_READY_S
        said = b""
        frames = frames_iter(attached, tty=False)
        while not said.endswith(b"\n") and len(said) <= 64:
            # docker-py's frame reader waits without a bound: wait here, bounded, for each frame.
            if not select.select([attached._sock], [], [], max(deadline - time.monotonic(), 0))[0]:
                raise OSError(f"the primed survey did not say it was ready within {SURVEY_READY_S:g} s")
            stream_id, chunk = next(frames, (None, b""))
            if stream_id is None:
                break
            if stream_id == STDOUT:
                said += chunk
        if said != b"ready\n":
            raise ValueError(f"the primed survey said {said[:64]!r}")
    if attempt.failed:
        if attached is not None:
            close_attached(attached)
        return None
    return PrimedSurvey(exec_id=exec_id, attached=attached, key=key)
