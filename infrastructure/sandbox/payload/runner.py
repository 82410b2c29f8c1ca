"""The runner inside the sandbox: streams a record of what the code attempts, then runs it.

This file is mounted next to the submitted program and started as ``python3 -I runner.py``; it uses
the standard library only. Before the code starts it connects to the supervisor's record socket
(/sandbox/record.sock, made by the supervisor for this one run, accepting one connection) and
installs a PEP 578 audit hook that sends one JSON line for each of the first few security-relevant
events of a kind (file opens, process launches, socket connects, file system changes, native code
loading, dynamic code, signals, introspection that could reach this recorder) and the running
counts, and a closing line when the program ends.

Started ahead in a pool container (``runner.py --primed``, decision 0015), it first connects to
/sandbox/go.sock and waits there for one line, the run's CPU-time and task limits, which it sets on
itself (lowering only) and closes that connection before anything else; the end of the connection
without a line means no run comes, and it ends.

It is a record, not a wall, and it is self-reported: it runs in the code's own process, so code can
stop it (``os._exit``, a crash, tampering found through ``gc``, which is itself recorded first).
What it cannot do is take back what was already sent: every line leaves the sandbox before the
action it describes happens. The container's limits and the supervisor are what enforce.
"""

from __future__ import annotations

import os
import runpy
import socket
import sys

FIRST = 5
PROGRAM = "/sandbox/main.py"
FEED = "/sandbox/record.sock"
GO = "/sandbox/go.sock"
_QUIET_PREFIXES = ("/usr/lib/python3", "/usr/local/lib/python3", "/sandbox/", "/dev/null")

CATEGORIES = {
    "open": "file_open",
    "subprocess.Popen": "process",
    "os.system": "process",
    "os.exec": "process",
    "os.spawn": "process",
    "os.posix_spawn": "process",
    "os.fork": "process",
    "os.forkpty": "process",
    "pty.spawn": "process",
    "socket.connect": "network",
    "socket.bind": "network",
    "socket.sendto": "network",
    "socket.getaddrinfo": "dns",
    "socket.gethostbyname": "dns",
    "urllib.Request": "network",
    "os.remove": "file_change",
    "os.rename": "file_change",
    "os.rmdir": "file_change",
    "os.mkdir": "file_change",
    "os.chmod": "file_change",
    "os.chown": "file_change",
    "os.symlink": "file_change",
    "os.link": "file_change",
    "os.truncate": "file_change",
    "shutil.rmtree": "file_change",
    "ctypes.dlopen": "native_code",
    "ctypes.dlsym": "native_code",
    "compile": "dynamic_code",
    "os.kill": "signal",
    "os.killpg": "signal",
    "sys.addaudithook": "audit_hook",
    "gc.get_objects": "introspection",
    "gc.get_referrers": "introspection",
    "gc.get_referents": "introspection",
    "sys.settrace": "introspection",
    "sys.setprofile": "introspection",
}


class _Recorder:
    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.busy = False
        self.channel = None
        try:
            channel = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            channel.connect(FEED)
            self.channel = channel
        except OSError:
            pass  # the supervisor records that the runner never reported

    def hook(self, event: str, args: tuple) -> None:
        category = CATEGORIES.get(event)
        if category is None or self.busy:
            return
        self.busy = True  # our own sends raise audit events too
        try:
            detail = _describe(event, args)
            if detail is None:
                return
            count = self.counts[category] = self.counts.get(category, 0) + 1
            if count <= FIRST:
                self.send({"category": category, "count": count, "detail": detail})
            elif count & (count - 1) == 0:  # then at every power of two: the counts only grow
                self.send({"category": category, "count": count})
        except Exception:  # noqa: BLE001 - the hook must never break the program it watches
            pass
        finally:
            self.busy = False

    def send(self, item: dict) -> None:
        if self.channel is None:
            return
        try:
            self.channel.sendall(_json(item).encode("utf-8")[:4000] + b"\n")
        except OSError:
            self.channel = None

    def close(self, status: int) -> None:
        self.busy = True
        for category, count in self.counts.items():
            if count > FIRST:
                self.send({"category": category, "count": count})
        if self.channel is not None:  # by hand: a run that sent nothing never pays for importing json
            try:
                self.channel.sendall(b'{"end":true,"status":%d}\n' % status)
            except OSError:
                self.channel = None


def _json(item: dict) -> str:
    """json, imported at the first line sent (about 7 ms of the interpreter's start otherwise)."""
    import json

    return json.dumps(item, separators=(",", ":"))


def _describe(event: str, args: tuple) -> dict | None:
    if event == "open":
        path, mode = args[0], args[1]
        if not isinstance(path, str) or path.startswith(_QUIET_PREFIXES):
            return None  # the interpreter importing its own library is not the code's doing
        return {"event": event, "path": path, "mode": str(mode)}
    if event == "compile":
        source, filename = args[0], args[1]
        if not str(filename).startswith("<"):
            return None  # imports compile files; only code built at run time is of interest
        caller = sys._getframe(3).f_code.co_filename
        if caller.startswith(_QUIET_PREFIXES[:2]):
            return None  # the standard library generating code (namedtuple, dataclasses) on the code's behalf
        text = source.decode("utf-8", "replace") if isinstance(source, bytes) else str(source)
        return {"event": event, "source": text[:120]}
    if event in ("socket.getaddrinfo", "socket.gethostbyname"):
        return {"event": event, "host": repr(args[0])[:120], "port": repr(args[1]) if len(args) > 1 else ""}
    if event.startswith("socket."):
        return {"event": event, "address": repr(args[1] if len(args) > 1 else args)[:120]}
    return {"event": event, "args": repr(args)[:160]}


def wait_for_run() -> bool:
    """Primed: wait for the run's limits and set them; False if no run comes."""
    import resource

    channel = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        channel.connect(GO)
        data = b""
        while not data.endswith(b"\n") and len(data) < 512:
            chunk = channel.recv(512)
            if not chunk:
                return False
            data += chunk
    except OSError:
        return False
    finally:
        channel.close()
    import json  # primed: imported before the run, off its path

    order = json.loads(data)
    if order.get("cpu"):
        soft, hard = order["cpu"]
        resource.setrlimit(resource.RLIMIT_CPU, (int(soft), int(hard)))
    if order.get("nproc"):
        resource.setrlimit(resource.RLIMIT_NPROC, (int(order["nproc"]), int(order["nproc"])))
    return True


def refuse_device_nodes() -> None:
    """A seccomp filter on this process and all it starts: ``mknod``/``mknodat`` of a character or
    block device fail with EPERM (issue 23: under gVisor, whose kernel the host's seccomp does not
    see, uid 1000 with no capabilities made /dev/null's twin on /tmp and wrote it; runc's host kernel
    refuses without CAP_MKNOD). Installed before anything of the code runs, and for good: a filter
    cannot be taken off. If it cannot be installed the runner fails, and the code does not run."""
    import ctypes
    import struct

    machine = os.uname().machine
    # The audit architecture, and each call that makes a node with the index of its mode argument.
    arch, calls = {"x86_64": (0xC000003E, {133: 1, 259: 2}), "aarch64": (0xC00000B7, {33: 2})}[machine]
    load, equal, bits, answer, mask = 0x20, 0x15, 0x45, 0x06, 0x54  # classic BPF: ld abs, jeq, jset, ret, and
    allow, refuse = 0x7FFF0000, 0x00050001  # SECCOMP_RET_ALLOW; SECCOMP_RET_ERRNO | EPERM
    program = [(load, 0, 0, 4), (equal, 1, 0, arch), (answer, 0, 0, refuse), (load, 0, 0, 0)]
    if machine == "x86_64":
        program += [(bits, 0, 1, 0x40000000), (answer, 0, 0, refuse)]  # the x32 numbering: not Python's
    for number, index in calls.items():
        program += [
            (equal, 0, 6, number), (load, 0, 0, 16 + 8 * index), (mask, 0, 0, 0o170000),  # S_IFMT
            (equal, 2, 0, 0o020000), (equal, 1, 0, 0o060000), (answer, 0, 0, allow), (answer, 0, 0, refuse),
        ]
    program.append((answer, 0, 0, allow))
    code = ctypes.create_string_buffer(b"".join(struct.pack("=HBBI", *step) for step in program))

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    libc = ctypes.CDLL(None, use_errno=True)
    # PR_SET_NO_NEW_PRIVS (already set by the container), then PR_SET_SECCOMP with SECCOMP_MODE_FILTER.
    if libc.prctl(38, 1, 0, 0, 0) or libc.prctl(22, 2, ctypes.byref(Program(len(program), ctypes.addressof(code))), 0, 0):
        raise OSError(ctypes.get_errno(), "the sandbox could not refuse device nodes; the code was not run")


def main() -> int:
    refuse_device_nodes()
    if sys.argv[1:] == ["--primed"] and not wait_for_run():
        return 0
    recorder = _Recorder()
    sys.addaudithook(recorder.hook)
    sys.argv = [PROGRAM]
    sys.path.insert(0, "/sandbox")
    dependencies = os.environ.pop("MAI_SAFETY_DEPS", "")
    if dependencies:
        sys.path.insert(1, dependencies)  # what pip installed for this run (-I leaves it off the path)
    status = 0
    try:
        runpy.run_path(PROGRAM, run_name="__main__")
    except SystemExit as exit_:
        code = exit_.code
        if code is None:
            status = 0
        elif isinstance(code, int):
            status = code
        else:
            print(code, file=sys.stderr)
            status = 1
    except BaseException as error:  # noqa: BLE001 - shown as the program's own traceback
        frames = error.__traceback__
        while frames is not None and frames.tb_frame.f_code.co_filename != PROGRAM:
            frames = frames.tb_next
        import traceback  # only for a program that failed

        traceback.print_exception(type(error), error, frames or error.__traceback__)
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    recorder.close(status)
    return status


if __name__ == "__main__":
    sys.exit(main())
