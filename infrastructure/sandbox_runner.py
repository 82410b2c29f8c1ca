"""The runner inside the sandbox: records what the code attempts, then runs it.

This file is copied next to the submitted program and started as ``python3 -I runner.py``; it uses
the standard library only. Before the code starts it installs a PEP 578 audit hook that counts the
security-relevant events the code attempts (file opens, process launches, socket connects, file
system changes, native code loading, dynamic code) and keeps the first few of each, written as
JSON to the summary path the supervisor reads from outside.

It is a record, not a wall: code can crash the runner, ``os._exit`` past its last write, or write a
summary of its own. The container's limits are the enforcement; this tells what was tried.
"""

from __future__ import annotations

import json
import os
import runpy
import sys
import traceback

FIRST = 5
PROGRAM = "/sandbox/main.py"
SUMMARY = "/run/mai-safety/audit.json"
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
}


class _Recorder:
    def __init__(self) -> None:
        self.summary: dict[str, dict] = {}
        self.busy = False

    def hook(self, event: str, args: tuple) -> None:
        category = CATEGORIES.get(event)
        if category is None or self.busy:
            return
        self.busy = True  # our own writes raise audit events too
        try:
            detail = _describe(event, args)
            if detail is None:
                return
            entry = self.summary.setdefault(category, {"count": 0, "first": []})
            entry["count"] += 1
            if len(entry["first"]) < FIRST:
                entry["first"].append(detail)
                self.write()
        except Exception:  # noqa: BLE001 - the hook must never break the program it watches
            pass
        finally:
            self.busy = False

    def write(self) -> None:
        try:
            with open(SUMMARY + ".tmp", "w", encoding="utf-8") as handle:
                json.dump(self.summary, handle)
            os.replace(SUMMARY + ".tmp", SUMMARY)
        except OSError:
            pass


def _describe(event: str, args: tuple) -> dict | None:
    if event == "open":
        path, mode = args[0], args[1]
        if not isinstance(path, str) or path.startswith(_QUIET_PREFIXES) or path == SUMMARY + ".tmp":
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


def main() -> int:
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
        traceback.print_exception(type(error), error, frames or error.__traceback__)
        status = 1
    finally:
        recorder.write()
    sys.stdout.flush()
    sys.stderr.flush()
    return status


if __name__ == "__main__":
    sys.exit(main())
