"""A session's interpreter (issue #27, decision 0040): one long-lived Python that runs each cell in
one persistent globals dict, as a notebook's kernel does, in the session's working directory.

Started by exec as the code's uid (1000), as ``python3 -I /sandbox/interpreter.py``, it installs
the runner's device-node seccomp filter (runner.py's ``refuse_device_nodes``) before anything else,
then connects to /sandbox/cells.sock, which the service made for it in the container's own host
folder and which stops listening once it is connected. It then reads one JSON line per cell and
answers one:

  in:  {"code": str, "files": {name: base64}, "cpu_s": float, "wall_s": float, "max_output": int, "number": int,
        "bounds": {"max_outputs": int, "max_output_bytes": int, "max_outputs_total": int, "collect_s": float}}
  out: {"status": 0 | 1, "stdout": str, "stderr": str, "truncated": bool, "manifest": [...],
        "files_out": {"files": [{"name", "data"}], "left_out": [...], "left_out_count": int},
        "duration_s": float, "wall_clock": bool}

At ``wall_s`` the cell is interrupted in its interpreter (an exception raised in it, as a notebook's
interrupt does): its output so far and the interpreter's state are kept, and ``wall_clock`` says so.
A cell that swallows the interrupt meets the service's own clock a moment later, which ends the
interpreter.

Each cell gets its own CPU time (RLIMIT_CPU's soft limit set to what the interpreter has used plus
the cell's allowance; the hard limit is the session's total, set once); past it the kernel ends
the interpreter (SIGXCPU), which the service records and answers with a new interpreter. Output is
captured at the descriptors (1 and 2), each a pipe drained by a thread that keeps the first
``max_output`` bytes and counts the rest (a cell that floods its output neither fills the session's
/tmp nor blocks), so a child process's output is the cell's too; a cell's
last expression is shown as a notebook shows it. After each cell the working directory's manifest
(names, sizes, SHA-256) is sent with the answer, and the bytes of each file the cell created or
changed (``files_out``: its SHA-256 is not the one the file had after the cell before, or as the
cell's input), within ``bounds``; what is past them is named as left out. Standard library only.

It is the code's own process: what it reports is self-reported, as the runner's record is. The
container's limits, the keeper and the service's clock are what enforce.
"""

from __future__ import annotations

import ast
import base64
import builtins
import hashlib
import json
import os
import resource
import signal
import socket
import sys
import threading
import time
import traceback

CELLS = "/sandbox/cells.sock"
MAX_MANIFEST = 1000
#: How many files past the bounds are named (the rest are counted).
NAMED_LEFT_OUT = 20

#: Name to SHA-256 of the working directory as the last answer listed it, and of the inputs placed since.
_seen: dict = {}


def _connect() -> socket.socket:
    channel = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    channel.connect(CELLS)
    return channel


def _lines(channel: socket.socket):
    """The service's orders, one JSON line each; ends when the connection does."""
    buffer = b""
    while True:
        chunk = channel.recv(65536)
        if not chunk:
            return
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            yield json.loads(line)


def _place(files: dict) -> None:
    for name, data in files.items():
        folder = os.path.dirname(name)
        if folder:
            os.makedirs(folder, exist_ok=True)
        data = base64.b64decode(data)
        with open(name, "wb") as handle:
            handle.write(data)
        _seen[os.path.normpath(name)] = hashlib.sha256(data).hexdigest()


class _Outputs:
    """The bytes of the files a cell created or changed, within the service's bounds."""

    def __init__(self, bounds: dict) -> None:
        self.count = int(bounds.get("max_outputs") or 0)
        self.each = int(bounds.get("max_output_bytes") or 0)
        self.total = int(bounds.get("max_outputs_total") or 0)
        self.files, self.left_out, self.left_out_count, self.kept = [], [], 0, 0

    def fits(self, size: int) -> bool:
        return len(self.files) < self.count and size <= self.each and self.kept + size <= self.total

    def keep(self, name: str, data: bytes) -> None:
        self.files.append({"name": name, "data": base64.b64encode(data).decode("ascii")})
        self.kept += len(data)

    def leave_out(self, name: str, size: int) -> None:
        self.left_out_count += 1
        if len(self.left_out) < NAMED_LEFT_OUT:
            self.left_out.append({"name": name[:300], "why": "over the policy's bounds", "bytes": size})

    def record(self) -> dict:
        return {"files": self.files, "left_out": self.left_out, "left_out_count": self.left_out_count}


def _manifest(outputs: _Outputs) -> list:
    """The working directory's regular files (no link followed); a changed file's bytes to ``outputs``."""
    entries = []
    for folder, folders, names in os.walk("."):
        folders.sort()
        for name in sorted(names):
            path = os.path.join(folder, name)
            if len(entries) >= MAX_MANIFEST or os.path.islink(path) or not os.path.isfile(path):
                continue
            digest = hashlib.sha256()
            blocks, size = [], 0
            try:
                with open(path, "rb") as handle:
                    for block in iter(lambda: handle.read(1 << 20), b""):
                        digest.update(block)
                        size += len(block)
                        if outputs.fits(size):
                            blocks.append(block)
            except OSError:
                continue
            relative = os.path.relpath(path, ".")
            entries.append({"name": relative, "size": size, "sha256": digest.hexdigest()})
            if _seen.get(relative) != entries[-1]["sha256"]:
                if outputs.fits(size):
                    outputs.keep(relative, b"".join(blocks))
                else:
                    outputs.leave_out(relative, size)
    _seen.clear()
    _seen.update((entry["name"], entry["sha256"]) for entry in entries)
    return entries


def _cpu_used() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _allow_cpu(seconds: float) -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = int(_cpu_used() + seconds) + 1
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


class WallClockReached(BaseException):
    """The cell's wall clock ran out (raised in the cell by the interpreter's timer)."""


def _interrupt(_signum: int, _frame: object) -> None:
    raise WallClockReached("the cell ran past its wall clock")


def _run(code: str, number: int, namespace: dict) -> int:
    """Run one cell in the session's namespace; its last expression is shown. 0, or 1 if it raised."""
    name = f"<cell {number}>"
    try:
        tree = ast.parse(code, name)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, name, "exec", dont_inherit=True), namespace)  # noqa: S102 - running the cell is its job
        if last is not None:
            value = eval(compile(ast.Expression(last.value), name, "eval", dont_inherit=True), namespace)  # noqa: S307
            if value is not None:
                print(repr(value))
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except BaseException as error:  # noqa: BLE001 - shown as the cell's own traceback
        frames = error.__traceback__
        while frames is not None and not frames.tb_frame.f_code.co_filename.startswith("<cell"):
            frames = frames.tb_next
        traceback.print_exception(type(error), error, frames or error.__traceback__)
        return 1
    return 0


class _Capture:
    """One output descriptor of the process, a pipe while a cell runs, drained by a thread into at
    most ``limit`` + 1 bytes (what is past the bound is read and dropped)."""

    def __init__(self, fd: int, limit: int) -> None:
        self.fd, self.limit, self.kept = fd, limit, bytearray()
        read_end, write_end = os.pipe()
        self.saved = os.dup(fd)
        os.dup2(write_end, fd)
        os.close(write_end)
        self._thread = threading.Thread(target=self._drain, args=(read_end,), daemon=True)
        self._thread.start()

    def _drain(self, read_end: int) -> None:
        try:
            while True:
                chunk = os.read(read_end, 1 << 16)
                if not chunk:
                    return
                room = self.limit + 1 - len(self.kept)
                if room > 0:
                    self.kept += chunk[:room]
        except OSError:
            return
        finally:
            os.close(read_end)

    def finish(self) -> tuple[str, bool]:
        """The descriptor as it was; what the cell wrote (a child still holding the pipe open
        keeps it from ending: what came within a second is the cell's)."""
        os.dup2(self.saved, self.fd)
        os.close(self.saved)
        self._thread.join(1.0)
        kept = bytes(self.kept)
        return kept[: self.limit].decode("utf-8", "replace"), len(kept) > self.limit


def cell(order: dict, namespace: dict) -> dict:
    """One cell with its output captured at descriptors 1 and 2."""
    _place(order.get("files") or {})
    _allow_cpu(float(order.get("cpu_s") or 30))
    limit = int(order.get("max_output") or 1 << 20)
    streams = (sys.__stdout__, sys.__stderr__)
    for stream in streams:
        stream.flush()
    out, err = _Capture(1, limit), _Capture(2, limit)
    wall_s = float(order.get("wall_s") or 0)
    started = time.monotonic()
    try:
        try:
            if wall_s > 0:
                signal.setitimer(signal.ITIMER_REAL, wall_s)
            try:
                status = _run(order["code"], int(order.get("number") or 0), namespace)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except WallClockReached:  # the timer fired as the cell was ending, outside its code
            status = 1
    finally:
        for stream in (sys.stdout, sys.stderr, *streams):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - a stream the cell closed or replaced
                pass
        sys.stdout, sys.stderr = streams  # a cell that replaced them does not blind the next
        stdout, cut_out = out.finish()
        stderr, cut_err = err.finish()
    duration = time.monotonic() - started
    outputs = _Outputs(order.get("bounds") or {})
    return {
        "status": status, "stdout": stdout, "stderr": stderr, "truncated": cut_out or cut_err,
        "manifest": _manifest(outputs), "files_out": outputs.record(),
        "duration_s": round(duration, 6), "wall_clock": wall_s > 0 and duration >= wall_s,
    }


def main() -> int:
    sys.path.insert(0, "/sandbox")
    from runner import refuse_device_nodes  # the runner's own filter: one definition of it

    refuse_device_nodes()
    sys.path.remove("/sandbox")
    sys.path.insert(0, os.getcwd())  # a module written by an earlier cell is importable, as in a notebook
    signal.signal(signal.SIGALRM, _interrupt)
    channel = _connect()
    # Connected (the session is open), and before the first cell comes: a process's first compile()
    # of a string sets the parser up (~1.6 ms; the next ones ~0.03 ms), as the primed runner does too.
    compile("pass", "<the interpreter's warm-up>", "exec", dont_inherit=True)
    namespace = {"__name__": "__main__", "__builtins__": builtins, "__doc__": None}
    sys.argv = ["<session>"]
    for order in _lines(channel):
        answer = cell(order, namespace)
        channel.sendall(json.dumps(answer).encode("utf-8") + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
