"""The runner inside the sandbox: streams a record of what the code attempts, then runs it.

This file is mounted next to the submitted program and started as ``python3 -I runner.py``; it uses
the standard library only. Before the code starts it connects to the supervisor's record socket
(/sandbox/record.sock, made by the supervisor for this one run, accepting one connection) and
installs a PEP 578 audit hook that sends one JSON line for each of the first few security-relevant
events of a kind (file opens, process launches, socket connects, file system changes, native code
loading, dynamic code, signals, introspection that could reach this recorder) and the running
counts. The supervisor's first line on that socket is the run's key; the record ends with a seal
(decision 0033): after the program, its threads and its atexit handlers, the runner sends a SHA-256
keyed by the run's key over every line it sent and the exit status, and ends the process at once.
Any way the code takes toward the recorder (a frame, the collector, a tracer, native code, its own
memory) is sent first, as a ``reach`` line, before the code holds it.

Started ahead in a pool container (``runner.py --primed``, decision 0015), it connects to the record
socket and takes its key ahead too (the pool makes the socket before the runner), then connects to
/sandbox/go.sock and waits there for one line, the run's CPU-time and task limits, which it sets on
itself (lowering only) and closes that connection before anything else; the end of the connection
without a line means no run comes, and it ends.

It is a record, not a wall, and it is self-reported: it runs in the code's own process, so code can
stop it (``os._exit``, a crash, tampering found through ``gc``, which is itself recorded first).
What it cannot do is take back what was already sent: every line leaves the sandbox before the
action it describes happens; nor can it seal a record it cut, without the key that only the hook's
closure holds. The container's limits and the supervisor are what enforce.
"""

from __future__ import annotations

import atexit
import builtins
import os
import socket
import sys
import types

# The runner's own copy of the built-in names: functions defined below look them up here, so a
# program that replaces ``builtins.repr`` or ``builtins.isinstance`` does not reach into the hook.
__builtins__ = dict(vars(builtins))  # noqa: A001 - deliberately the module's private builtins

FIRST = 5
PROGRAM = "/sandbox/main.py"
FEED = "/sandbox/record.sock"
GO = "/sandbox/go.sock"
INPUTS = "/sandbox/files"  # the run's input files, read-only; copied into the working directory
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


# Where a frame handed out can lead: up to the runner, and from there to the recorder. These
# standard-library functions give the frame they take to their caller, so their caller is the one asking.
_HANDS_OUT = frozenset({"currentframe", "stack", "trace", "walk_stack", "walk_tb", "getouterframes", "getinnerframes"})
_FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
# Ways to the recorder's objects, its memory or a disguise as the library: asked for by the code
# itself, each leaves the record unable to say it is complete (decision 0033).
_REACH_EVENTS = frozenset(
    {
        "sys._getframe",
        "sys._current_frames",
        "sys._getframemodulename",
        "gc.get_objects",
        "gc.get_referrers",
        "gc.get_referents",
        "sys.settrace",
        "sys.setprofile",
        "code.__new__",
        "marshal.loads",
        "ctypes.dlopen",
        "ctypes.dlsym",
        "ctypes.cdata",
        "ctypes.string_at",
        "ctypes.addressof",
    }
)
_LIBRARY = ("/usr/lib/python3", "/usr/local/lib/python3", "<frozen ")
_MEMORY = ("/proc/self/mem", "/proc/thread-self/mem")
SEAL_EVENT = "mai-safety.seal"


def _recorder(channel, key, finish_code, runner_codes):
    """The audit hook, its state kept in closures: no frame of the code's nor the runner's
    module globals lead to it, and it is bound to what it uses now, so replacing a module's names
    later changes nothing. Sealing is asked for by an audit event that only ``_finish``, in this
    process, may raise; the seal covers every line sent (a running SHA-256) and the status, keyed
    by the run's key that the supervisor sent over the channel before the code started."""
    import _sha256
    import _thread
    import gc

    categories, first, describe, getframe, getpid = dict(CATEGORIES), FIRST, _describe, sys._getframe, os.getpid
    seal_event, owner, digest = SEAL_EVENT, getpid(), _sha256.sha256
    thread_of, busy = _thread.get_ident, set()  # per thread: one thread in the hook never blinds another
    gc_enabled, gc_disable, gc_enable = gc.isenabled, gc.disable, gc.enable
    counts: dict = {}
    sent = digest()
    state = {"channel": channel.sendall if channel is not None else None}
    send = _line_sender(state, sent)
    reached = _reach_judge(runner_codes)
    seal = _sealer(send, state, sent, counts, key)

    def hook(event: str, args: tuple) -> None:
        me = thread_of()
        if me in busy:
            return
        busy.add(me)  # our own sends and look-ups raise audit events too
        collecting = gc_enabled()
        if collecting:
            gc_disable()  # no finalizer of the code's runs inside the hook, where its frame leads here
        try:
            if event == seal_event:
                if getframe(1).f_code is finish_code and getpid() == owner:
                    seal(args[0] if args else None)
                elif getpid() == owner:
                    send({"reach": {"event": seal_event, "by": "not the runner's end"}})
                return
            reach = reached(event, args)
            if reach is not None:
                send({"reach": reach})  # before the frame or the memory reaches the code
            category = categories.get(event)
            if category is None:
                return
            detail = describe(event, args)
            if detail is None:
                return
            count = counts[category] = counts.get(category, 0) + 1
            if count <= first:
                send({"category": category, "count": count, "detail": detail})
            elif count & (count - 1) == 0:  # then at every power of two: the counts only grow
                send({"category": category, "count": count})
        except Exception:  # noqa: BLE001 - the hook must never break the program it watches
            pass
        finally:
            if collecting:
                gc_enable()
            busy.discard(me)

    return hook


def _line_sender(state, sent):
    """The hook's ``send``: one JSON line over ``state``'s channel, added to the running hash
    ``sent`` in the order lines leave; a channel that fails is dropped (nothing more is sent)."""
    import _json
    import _thread

    quote = _json.encode_basestring_ascii
    sending = _thread.allocate_lock()

    def encode(item) -> str:
        if isinstance(item, dict):
            return "{" + ",".join(quote(str(name)) + ":" + encode(value) for name, value in item.items()) + "}"
        if isinstance(item, bool) or item is None:
            return {True: "true", False: "false", None: "null"}[item]
        if isinstance(item, int):
            return str(item)
        return quote(str(item))

    def send(item: dict) -> None:
        live = state["channel"]
        if live is None:
            return
        line = encode(item).encode("utf-8")[:4000] + b"\n"
        with sending:  # threads of the code: whole lines, hashed in the order they leave
            try:
                live(line)
                sent.update(line)
            except OSError:
                state["channel"] = None

    return send


def _reach_judge(runner_codes):
    """The hook's ``reached``: for an event by which code reaches toward the recorder (a frame,
    the process's memory, code compiled under the library's or the runner's name), who asked."""
    hands_out, frame_attributes, reach_events, library, memory = _HANDS_OUT, _FRAME_ATTRIBUTES, _REACH_EVENTS, _LIBRARY, _MEMORY
    getframe, path_of = sys._getframe, _path

    def asker(frame):
        """The code that asked: past the standard library's functions that hand a frame out."""
        while frame is not None and str.startswith(frame.f_code.co_filename, library) and frame.f_code.co_name in hands_out:
            frame = frame.f_back
        return frame

    def reached(event: str, args: tuple):
        if event == "object.__getattr__":
            if len(args) < 2 or args[1] not in frame_attributes:
                return None
            event += " " + args[1]
        elif event == "open":
            path = path_of(args[0]) or ""
            if not (str.startswith(path, memory) or (path[:6] == "/proc/" and str.endswith(path, "/mem"))):
                return None
        elif event == "compile":
            if not (type(args[1]) is str and str.startswith(args[1], library + ("/sandbox/runner",))):
                return None  # code may be compiled under any name but the library's or the runner's
        elif event not in reach_events:
            return None
        frame = asker(getframe(2))
        if frame is None or id(frame.f_code) in runner_codes or str.startswith(frame.f_code.co_filename, library):
            return None  # the runner, or the standard library working for itself
        return {"event": event, "by": f"{frame.f_code.co_filename}:{frame.f_lineno}"[:160]}

    return reached


def _sealer(send, state, sent, counts, key):
    """The hook's ``seal``: the signal handlers the code set, the counts past the first lines,
    then the seal over every line sent and the status; nothing is sent after it."""
    import _signal  # not signal.py, whose wrappers look names up in the builtins the code can replace
    import _sha256

    first, digest = FIRST, _sha256.sha256
    handler_of, defaults = _signal.getsignal, (_signal.SIG_DFL, _signal.SIG_IGN, None, _signal.default_int_handler)
    signals = [number for number in range(1, _signal.NSIG) if number not in (_signal.SIGKILL, _signal.SIGSTOP)]

    def seal(status) -> None:
        # A Python signal handler is handed the frame it interrupts, which may be this hook's.
        handlers = [number for number in signals if all(handler_of(number) is not default for default in defaults)]
        if handlers:
            send({"reach": {"event": "signal handler", "by": f"signals {handlers[:8]}"}})
        for category, count in counts.items():
            if count > first:
                send({"category": category, "count": count})
        if key is not None and isinstance(status, int):
            status = int(status)
            mark = digest(key + sent.digest() + str(status).encode()).hexdigest()
            send({"seal": mark, "status": status})
        state["channel"] = None  # nothing after the seal: the runner ends at once

    return seal


def _connect():
    """The record channel and the run's key (the one line the supervisor sends first), or Nones."""
    try:
        channel = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        channel.connect(FEED)
    except OSError:
        return None, None  # the supervisor records that the runner never reported
    key = b""
    try:
        channel.settimeout(5)
        while not key.endswith(b"\n") and len(key) < 128:
            chunk = channel.recv(128 - len(key))
            if not chunk:
                break
            key += chunk
        channel.settimeout(None)
    except OSError:
        pass
    return channel, (key.strip() or None) if key.endswith(b"\n") else None


def _shown(value: object, depth: int = 0) -> str:
    """A repr of what the code handed over that runs none of the code's own methods (a subclass's
    ``__repr__`` would run inside the hook, which is busy and so blind)."""
    kind = type(value)
    if kind in (str, bytes):
        return repr(value[:400])
    if value is None or kind in (int, float, bool):
        return repr(value)[:400]
    if kind in (tuple, list) and depth < 3:
        inner = ", ".join(_shown(item, depth + 1) for item in value[:20])
        return ("(%s)" if kind is tuple else "[%s]") % inner
    if kind is dict and depth < 3:
        return "{%s}" % ", ".join(_shown(name, depth + 1) + ": " + _shown(item, depth + 1) for name, item in list(dict.items(value))[:20])
    return object.__repr__(value)


def _path(value: object) -> str | None:
    if type(value) is str:
        return value
    if type(value) is bytes:
        return value.decode("utf-8", "replace")
    return None


def _describe(  # noqa: C901 - one branch per kind of event
    event: str, args: tuple, quiet: tuple = _QUIET_PREFIXES, getframe=sys._getframe, _shown=_shown, _path=_path
) -> dict | None:
    """What to send about one event; the names it uses are bound here, where the code cannot rebind them."""
    if event == "open":
        path, mode = _path(args[0]), args[1]
        if path is None:
            return {"event": event, "path": _shown(args[0])[:200], "mode": _shown(mode)}
        if str.startswith(path, quiet):
            return None  # the interpreter importing its own library is not the code's doing
        return {"event": event, "path": path, "mode": _shown(mode) if type(mode) is not str else mode}
    if event == "compile":
        source, filename = args[0], args[1]
        if type(filename) is str and str.startswith(filename, "<") is False:
            return None  # imports compile files; only code built at run time is of interest
        caller = getframe(3).f_code.co_filename
        if str.startswith(caller, quiet[:2]):
            return None  # the standard library generating code (namedtuple, dataclasses) on the code's behalf
        text = source.decode("utf-8", "replace") if type(source) is bytes else source if type(source) is str else _shown(source)
        return {"event": event, "source": text[:120]}
    if event in ("socket.getaddrinfo", "socket.gethostbyname"):
        return {"event": event, "host": _shown(args[0])[:120], "port": _shown(args[1]) if len(args) > 1 else ""}
    if str.startswith(event, "socket."):
        return {"event": event, "address": _shown(args[1] if len(args) > 1 else args)[:120]}
    return {"event": event, "args": _shown(args)[:160]}


def wait_for_run() -> bool:
    """Primed: wait for the run's limits and set them; False if no run comes."""
    import json  # primed: imported before the run, off its path
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

    order = json.loads(data)
    if order.get("cpu"):
        soft, hard = order["cpu"]
        resource.setrlimit(resource.RLIMIT_CPU, (int(soft), int(hard)))
    if order.get("nproc"):
        resource.setrlimit(resource.RLIMIT_NPROC, (int(order["nproc"]), int(order["nproc"])))
    return True


def place_inputs() -> str:
    """Copy the run's input files into the working directory (a tmpfs of the code's), before the
    recorder starts: the copies are ours, not the code's. Returns what failed, or ""."""
    import shutil

    sys.dont_write_bytecode = True  # an imported input module leaves no __pycache__ among the outputs
    try:
        for folder, _folders, names in os.walk(INPUTS):
            inside = os.path.relpath(folder, INPUTS)
            if inside != ".":
                os.makedirs(inside, exist_ok=True)
            for name in names:
                shutil.copyfile(os.path.join(folder, name), os.path.join(inside, name), follow_symlinks=False)
    except OSError as error:
        return f"the input files could not be placed in the working directory: {error}"
    return ""


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


def _run_program() -> None:
    """Run /sandbox/main.py as ``__main__``, read as UTF-8 text: the text that was assessed. A
    coding line (PEP 263) would make Python read the same bytes as other text (``# coding: utf-7``
    turns ``+AAo-`` in a comment into a new line); compiled from text, Python ignores it."""
    with open(PROGRAM, "rb") as handle:
        raw = handle.read()
    # "utf-8-sig" by hand (one leading byte-order mark off, then UTF-8): that codec is a module
    # of its own, imported from disk at the run's start (~0.3 ms of a pooled hello world).
    source = (raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw).decode("utf-8")
    code = compile(source, PROGRAM, "exec", dont_inherit=True)
    program = types.ModuleType("__main__")
    program.__dict__.update(__file__=PROGRAM, __builtins__=builtins, __loader__=None, __spec__=None, __cached__=None)
    sys.modules["__main__"] = program
    exec(code, program.__dict__)  # noqa: S102 - this is the runner: running the code is its job


def _finish(status: int, audit=sys.audit, run_exitfuncs=atexit._run_exitfuncs, end=os._exit, modules=sys.modules) -> None:
    """After the program: its threads and its atexit handlers, still watched; then the seal, and
    the end of the process at once, so that nothing of the code runs after the seal. What it calls
    is bound here, before the code could replace it."""
    threading = modules.get("threading")
    if threading is not None:
        try:
            for thread in threading.enumerate():
                if thread is not threading.main_thread() and not thread.daemon:
                    thread.join()
        except Exception:  # noqa: BLE001 - a thread the code broke: the seal says what it can
            pass
    run_exitfuncs()  # the code's own, as the interpreter's exit would run them
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a stream the code closed or replaced
            pass
    audit(SEAL_EVENT, status)
    end(status)


def main() -> int:
    refuse_device_nodes()
    primed = sys.argv[1:] == ["--primed"]
    if primed:
        # Before the run, off its path, as nothing of the code is here yet: a process's first
        # compile() of a string sets the parser up (~1.6 ms; the next ones take ~0.03 ms), and the
        # record's channel and key (~1.2 ms).
        compile("pass", "<the runner's warm-up>", "exec", dont_inherit=True)
        channel, key = _connect()
        if not wait_for_run():
            return 0
    if os.path.isdir(INPUTS):
        failed = place_inputs()
        if failed:
            print(failed, file=sys.stderr)
            return 1
        sys.path.insert(0, os.getcwd())  # a helper module among the inputs is importable (after /sandbox)
    if not primed:
        channel, key = _connect()
    sys.addaudithook(_recorder(channel, key, _finish.__code__, frozenset({id(main.__code__), id(_finish.__code__)})))
    del channel, key  # held by the hook alone: this frame is one the code can walk to
    sys.argv = [PROGRAM]
    sys.path.insert(0, "/sandbox")
    dependencies = os.environ.pop("MAI_SAFETY_DEPS", "")
    if dependencies:
        sys.path.insert(1, dependencies)  # what pip installed for this run (-I leaves it off the path)
    status = 0
    try:
        _run_program()
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
    _finish(status)
    return status  # not reached: _finish ends the process


if __name__ == "__main__":
    sys.exit(main())
