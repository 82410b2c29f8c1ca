"""The observed record (decision 0044): what a run did, seen from outside the code.

Under gVisor the sentry (gVisor's kernel, on the host) traces the code's system calls when the
engine has the runtime ``runsc-observed`` registered: ``runsc`` with ``--strace``, a short list of
``--strace-syscalls`` and ``--debug-log=DIR/`` limited to the sandbox (``--debug-command=boot``),
as scripts/setup.sh registers it. Each sandbox writes one log in DIR; the supervisor finds the one
that names its container, reads it once the code has ended (bounded in bytes and in time), keeps
only the lines of the code's own processes (the runner's process and its descendants, not the
keeper's), and removes the log.

The log is written by gVisor, but what it quotes (paths, argv) comes from the code: it is data.
No path it names is ever opened; a line that does not parse is counted, not trusted; a file name
holding a newline can add a line, never remove one. What the trace does not show: the target of a
symbolic link (the path as the code gave it), reads and writes on descriptors already open, and
anything after the bound (then the record says it is incomplete).

Under runc nothing traces system calls: the supervisor reads the argv of the code's processes it
finds in the container's cgroup at each sample (``ProcessSightings``), so a process that lived
less than a sampling interval is missed, and files, connections and signals are not seen at all.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import time
from pathlib import Path
from collections.abc import Callable
from typing import Any

from mai_safety.domain.observed import (
    MAX_ARGV,
    ObservedRecord,
    add_seen,
    cut,
    empty_record,
    inside_own_folders,
    is_sensitive,
)

from .cgroups import read_bytes

#: Whether a file the code opened (its path, "read" or "write") is one the policy's path model marks.
PathJudge = Callable[[str, str], bool]
OBSERVED_RUNTIME = "runsc-observed"
#: The calls ``runsc-observed`` traces: scripts/setup.sh registers them (a unit test holds the two together).
TRACED_SYSCALLS = (
    "execve,execveat,open,openat,creat,unlink,unlinkat,rename,renameat,renameat2,rmdir,connect,kill,tkill,tgkill,"
    "clone,fork,vfork,sendto,sendmsg"
)
OBSERVED_HINT = "MAI_SAFETY_INSTALL_GVISOR=1 bash scripts/setup.sh registers it"
#: Bounds of one run's trace: bytes read, seconds spent parsing, bytes of a log's head searched for its container.
MAX_TRACE_BYTES = 16 * 1024 * 1024
MAX_TRACE_SECONDS = 5.0
_HEAD_BYTES = 16 * 1024
#: A log untouched this long belongs to no run any more: removed when the folder is next searched.
STALE_LOG_S = 6 * 3600.0
GVISOR_SEES = ("processes", "files", "removed", "connections", "signals")
RUNC_SEES = ("processes",)
RUNC_NOTE = (
    "under runc nothing traces the code's system calls: only the argv of the code's processes alive at a "
    "sample is seen (a shorter-lived one is missed); files, removals, connections and signals are not observed"
)

_LINE = re.compile(r"^[IWEDF]\d{4} [\d:.]+\s+\d+ strace\.go:\d+\] \[\s*(\d+):\s*(\d+)\] \S+ X (\w+)\((.*)\) = (-?\d+) \(0x[0-9a-f]+\)(.*)$")
_ENTRY = re.compile(r"strace\.go:\d+\] \[\s*\d+:\s*\d+\] \S+ E \w+\(")
_ADDRESS = re.compile(r"0x[0-9a-f]+ ")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
_DIRFD = re.compile(r"^(?:AT_FDCWD|0x[0-9a-f]+|-?\d+) ?(.*)$")
_SOCKET = re.compile(r"\{Family: (\w+)(?:, Addr: (.*?))?(?:, Port: (\d+))?\}")
_WRITE_FLAGS = ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND")
#: Reads that every Python program makes (its interpreter, libraries, locale): not listed.
_ORDINARY_READS = (
    "/usr/lib/", "/usr/local/lib/", "/lib/", "/lib64/", "/usr/share/", "/usr/include/", "/etc/ld.so", "/etc/localtime",
    "/usr/bin/", "/usr/pyvenv.cfg", "/usr/local/bin/", "/proc/self/", "/dev/null", "/dev/urandom", "/dev/random",
    "/sandbox/", "/opt/pip/", "/etc/mime.types", "/etc/nsswitch.conf", "/etc/host.conf", "/etc/gai.conf",
)
_ORDINARY_EXACT = ("/usr/lib", "/usr/lib/python3.11", "/usr/local/lib", "/sandbox", "/proc/self", "/etc/os-release")
_RUNNER = "/sandbox/runner.py"
_CODE = "/sandbox/main.py"


class TraceParser:
    """Turns gVisor's strace lines into the observed record of the code's own processes. Pure:
    it reads lines given to it and nothing else."""

    def __init__(self, judge: PathJudge | None = None) -> None:
        """``judge``: the policy's sensitive-path model (path, access), beside the domain's fixed names."""
        self.judge = judge
        self.record = empty_record("gvisor-strace", GVISOR_SEES)
        self.runner: int | None = None
        self.tree: set[int] = set()
        self.malformed = 0

    def feed(self, line: str) -> None:
        if "strace.go" not in line or _ENTRY.search(line):
            return  # not a trace line, or a call's entry: its exit line, with the result, follows
        match = _LINE.match(line.rstrip("\n"))
        if match is None:
            self.malformed += 1
            return
        pid, call, arguments, result, rest = int(match[1]), match[3], match[4], int(match[5]), match[6]
        ok = "errno=" not in rest
        if self.runner is None:
            if call in ("openat", "open") and _RUNNER in arguments and ok:
                self.runner = pid  # the runner's process: the code runs in it, and in its descendants
            return
        if not self.tree:
            if pid == self.runner and call in ("openat", "open") and _CODE in arguments and ok:
                self.tree.add(pid)  # the runner reads the code: what it did before (placing inputs) is its own
            return
        if pid not in self.tree:
            return
        try:
            self._take(call, arguments, result, ok)
        except (ValueError, IndexError):
            self.malformed += 1

    def _take(self, call: str, arguments: str, result: int, ok: bool) -> None:
        record = self.record
        if call in ("clone", "fork", "vfork"):
            if ok and result > 0:
                self.tree.add(result)
                if "CLONE_THREAD" not in arguments:  # a process made, not a thread of one
                    record["counts"]["clones"] = record["counts"].get("clones", 0) + 1
        elif call in ("execve", "execveat"):
            if ok:
                path = _path_after_address(arguments)
                argv = [cut(_unquote(item)) for item in _QUOTED.findall(_bracketed(arguments))][:MAX_ARGV]
                add_seen(record, "processes", {"argv": argv, "path": cut(path)})
        elif call in ("open", "openat", "creat"):
            self._open(call, arguments, ok)
        elif call in ("unlink", "unlinkat", "rmdir"):
            path = _joined(arguments, at=call == "unlinkat")
            if not inside_own_folders(path):
                add_seen(record, "removed", {"path": cut(path), "operation": "rmdir" if call == "rmdir" else "unlink", "ok": ok})
        elif call in ("rename", "renameat", "renameat2"):
            self._rename(call, arguments, ok)
        elif call == "connect":
            self._connect(arguments, ok)
        elif call in ("sendto", "sendmsg"):
            self._sent(call, arguments, ok)
        elif call in ("kill", "tkill", "tgkill"):
            numbers = [_signed(int(part, 0)) for part in re.findall(r"-?0x[0-9a-f]+|-?\d+", arguments)]
            target, signal = (numbers[0], numbers[-1]) if numbers else (0, 0)
            own = target in self.tree or target == 0 or (target < -1 and -target in self.tree)
            add_seen(record, "signals", {"target": target, "signal": signal, "ok": ok, "own": own})

    def _open(self, call: str, arguments: str, ok: bool) -> None:
        path = _joined(arguments, at=call == "openat")
        flags = arguments.rsplit(", ", 2)[-2] if call != "creat" else "O_CREAT"
        access = "write" if any(flag in flags for flag in _WRITE_FLAGS) else "read"
        marked = self.judge is not None and self.judge(path, access)
        if (path == "/workspace" or path.startswith("/workspace/")) and not (marked or is_sensitive(path)):
            return  # its own folder; but ~ is /workspace, so ~/.ssh or ~/.bashrc there is still listed
        if access == "read" and not marked and (path.startswith(_ORDINARY_READS) or path in _ORDINARY_EXACT):
            self.record["counts"]["ordinary_reads"] = self.record["counts"].get("ordinary_reads", 0) + 1
            return
        entry: dict[str, Any] = {"path": cut(path), "access": access, "ok": ok}
        if marked:
            entry["sensitive"] = True  # the policy's path model marks it (policies/sensitive_paths.yaml)
        add_seen(self.record, "files", entry)

    def _rename(self, call: str, arguments: str, ok: bool) -> None:
        if call == "rename":
            parts = _ADDRESS.split(arguments)
            old, new = parts[1].rsplit(", ", 1)[0], parts[2]
        else:
            halves = re.split(r", (?=(?:AT_FDCWD|0x[0-9a-f]+) )", arguments)
            old, new = _joined(", ".join(halves[:2]), at=True), _joined(", ".join(halves[2:4]), at=True)
            if call == "renameat2":
                new = new.rsplit(", ", 1)[0]
        old, new = posixpath.normpath(old), posixpath.normpath(new)
        if not (inside_own_folders(old) and inside_own_folders(new)):
            add_seen(self.record, "removed", {"path": cut(old), "operation": "rename", "ok": ok, "to": cut(new)})

    def _connect(self, arguments: str, ok: bool, via: str | None = None) -> None:
        found = _SOCKET.search(arguments)
        if found is None or found[1] in ("AF_UNIX", "AF_NETLINK"):
            return  # the runner's record socket, and the kernel's own sockets: not a connection out
        entry: dict[str, Any] = {"family": found[1], "address": cut((found[2] or "").strip('"')), "ok": ok}
        if found[3]:
            entry["port"] = int(found[3])
        if via is not None:
            entry["via"] = via
        add_seen(self.record, "connections", entry)

    def _sent(self, call: str, arguments: str, ok: bool) -> None:
        """A datagram sent to an address with no ``connect`` (UDP: syslog, a DNS query, a raw send).
        Sent on a connected socket (no address), its ``connect`` was listed already. gVisor decodes
        ``sendto``'s address, not ``sendmsg``'s: that one is listed with its address unknown."""
        if call == "sendto":
            self._connect(arguments, ok, via=call)  # with no address decoded, nothing is listed
            return
        if re.search(r"\bname=0x0\b", arguments) or "name=" not in arguments:
            return
        entry: dict[str, Any] = {"family": "unknown", "address": "(an address gVisor's trace does not decode)", "ok": ok, "via": call}
        add_seen(self.record, "connections", entry)

    def finish(self, problem: str | None = None) -> ObservedRecord:
        record = self.record
        if not self.tree and problem is None:
            problem = "the trace never showed the runner start the code: nothing of the code could be told apart"
        if self.malformed:
            record["counts"]["malformed_lines"] = self.malformed
        if problem is not None:
            record["complete"] = False
            record["problem"] = problem
        return record


def _signed(number: int) -> int:
    """A pid printed as an unsigned register (kill(-1) shows as 0xffffffffffffffff) read back as signed."""
    for bits in (64, 32):
        if 2 ** (bits - 1) <= number < 2**bits:
            return number - 2**bits
    return number


def _path_after_address(text: str) -> str:
    """The path in ``0xADDR /the/path, ...``: the first argument printed as a string."""
    return _ADDRESS.split(text, maxsplit=1)[1].split(", 0x", 1)[0]


def _bracketed(text: str) -> str:
    start = text.index("[")
    end = text.index("], 0x", start) if "], 0x" in text[start:] else text.rindex("]")
    return text[start:end]


def _unquote(text: str) -> str:
    try:
        value = json.loads(f'"{text}"')
        return value if isinstance(value, str) else text
    except ValueError:
        return text


def _joined(arguments: str, at: bool) -> str:
    """The path an (at-)call named, joined to its directory as gVisor printed it, as text only."""
    if not at:
        return posixpath.normpath(_path_after_address(arguments).rsplit(", ", 1)[0] if ", 0o" in arguments else _path_after_address(arguments))
    directory_part, rest = arguments.split(", ", 1)
    directory = (_DIRFD.match(directory_part) or _DIRFD.match(""))[1]  # type: ignore[index]
    path = _ADDRESS.split(rest, maxsplit=1)[1]
    path = re.split(r", (?:O_|0x|0o|AT_|RENAME_|\d)", path, maxsplit=1)[0]
    return posixpath.normpath(posixpath.join(directory or "/", path))


def parse_trace(lines: Any, deadline: float, problem: str | None = None, judge: PathJudge | None = None) -> ObservedRecord:
    """The record of ``lines`` (an iterable of text lines), parsing until ``deadline`` (monotonic)."""
    parser = TraceParser(judge)
    for line in lines:
        if time.monotonic() > deadline:
            problem = problem or f"parsing the trace took longer than {MAX_TRACE_SECONDS:g} s: what came after is not in the record"
            break
        parser.feed(line)
    return parser.finish(problem)


# --- the log on the host -------------------------------------------------------------------


def log_directory(arguments: list[str]) -> Path | None:
    """The folder ``--debug-log=DIR/`` names among a runtime's registered arguments."""
    for argument in arguments:
        if argument.startswith("--debug-log="):
            value = argument.split("=", 1)[1]
            return Path(value) if value.endswith("/") else Path(value).parent
    return None


def observed_status(runtimes: dict[str, Any]) -> dict[str, Any]:
    """Whether runs under gVisor can be observed on this engine: ``runsc-observed`` registered with
    the trace's arguments and a log folder this process can read."""
    entry = runtimes.get(OBSERVED_RUNTIME)
    if entry is None:
        return {
            "available": False, "runtime": OBSERVED_RUNTIME,
            "reason": f"the Docker engine has no {OBSERVED_RUNTIME} runtime: runs under gVisor get no observed record",
            "how": OBSERVED_HINT,
        }
    arguments = [str(argument) for argument in entry.get("runtimeArgs") or []]
    directory = log_directory(arguments)
    missing = [argument for argument in ("--strace", "--network=none", "--host-uds=open") if argument not in arguments]
    if missing or directory is None:
        reason = f"{OBSERVED_RUNTIME} is registered without {', '.join(missing) or '--debug-log=DIR/'}"
        return {"available": False, "runtime": OBSERVED_RUNTIME, "reason": reason, "how": OBSERVED_HINT}
    if not os.access(directory, os.R_OK | os.W_OK | os.X_OK):
        reason = f"its trace folder {directory} cannot be read and cleared from here"
        return {"available": False, "runtime": OBSERVED_RUNTIME, "reason": reason, "how": OBSERVED_HINT}
    return {"available": True, "runtime": OBSERVED_RUNTIME, "log_directory": str(directory)}


def find_logs(directory: Path, container_id: str, since: float | None = None) -> list[Path]:
    """The sandbox logs in ``directory`` whose head names ``container_id`` (runsc writes its
    arguments, which end with the container's id, in the first lines). Only names listed here are
    opened, never a path a log names.

    ``since``: when the container was made (epoch seconds). The folder holds every sandbox's log
    for hours (570 of them, 16 KiB of heads each read at every run, ~20 ms, on a test machine), and a
    log's name says when its sandbox booted (runsc's ``%TIMESTAMP%``, this host's local time): those
    named from ``since`` on are looked at first. If none of them is the container's (a clock or a
    zone that does not agree), every log is, as without ``since``, and stale ones are removed then."""
    try:
        names = sorted(entry.name for entry in os.scandir(directory) if entry.name.startswith("runsc.log.") and entry.name.endswith(".boot.txt"))
    except OSError:
        return []
    needle = container_id.encode()
    if since is not None:
        stamps = {name: _stamp(name) for name in names}
        booted_since, stale_before = _local_stamp(since - _BOOT_SKEW_S), _local_stamp(time.time() - STALE_LOG_S)
        found = _heads_naming(directory, [name for name in names if (stamps[name] or "") >= booted_since], needle)
        if found:
            # Those booted longer ago than a log may lie untouched are looked at for staleness alone.
            _remove_stale(directory, [name for name in names if "" < (stamps[name] or "") < stale_before])
            return found
    return _heads_naming(directory, _remove_stale(directory, names), needle)


#: How much earlier than the container's creation its sandbox's log name may say it booted.
_BOOT_SKEW_S = 120.0
#: runsc's %TIMESTAMP% to the second, as its log names begin it: text that sorts as the time does.
_STAMP = "%Y%m%d-%H%M%S"


def _stamp(name: str) -> str | None:
    """When a sandbox booted, as its log's name says (runsc.log.20261126-100111.750113.boot.txt)."""
    parts = name.split(".")
    stamp = parts[2] if len(parts) > 2 else ""
    return stamp if len(stamp) == 15 and stamp[8] == "-" and (stamp[:8] + stamp[9:]).isdigit() else None


def _local_stamp(epoch: float) -> str:
    return time.strftime(_STAMP, time.localtime(epoch))


def _remove_stale(directory: Path, names: list[str]) -> list[str]:
    """Remove the logs among ``names`` untouched for STALE_LOG_S; the others."""
    kept = []
    for name in names:
        try:
            if time.time() - (directory / name).stat().st_mtime > STALE_LOG_S:
                (directory / name).unlink()  # a sandbox nobody read (a pool container never used, a crash)
                continue
        except OSError:
            continue
        kept.append(name)
    return kept


def _heads_naming(directory: Path, names: list[str], needle: bytes) -> list[Path]:
    """The logs among ``names`` whose head holds ``needle``."""
    found = []
    for name in names:
        try:
            with open(directory / name, "rb") as handle:
                if needle in handle.read(_HEAD_BYTES):
                    found.append(directory / name)
        except OSError:
            continue
    return found


def read_observed(
    directory: Path,
    container_id: str,
    max_bytes: int = MAX_TRACE_BYTES,
    max_s: float = MAX_TRACE_SECONDS,
    judge: PathJudge | None = None,
    since: float | None = None,
) -> ObservedRecord:
    """The observed record of the run in ``container_id``, from its sandbox's log (then removed).
    ``since``: when the container was made (find_logs)."""
    deadline = time.monotonic() + max_s
    logs = find_logs(directory, container_id, since)
    if not logs:
        record = empty_record("gvisor-strace", GVISOR_SEES, complete=False)
        record["problem"] = f"no trace of this sandbox was found in {directory}"
        return record
    problem = None
    lines: list[str] = []
    budget = max_bytes
    for log in logs:
        try:
            with open(log, "rb") as handle:
                data = handle.read(budget + 1)
        except OSError as exc:
            problem = f"the trace could not be read ({type(exc).__name__})"
            continue
        if len(data) > budget:
            data = data[:budget]
            problem = f"the trace was cut at {max_bytes} bytes: what came after is not in the record"
        budget -= len(data)
        lines.extend(data.decode("utf-8", "replace").splitlines())
    for log in logs:
        try:
            log.unlink()
        except OSError:
            pass
    return parse_trace(lines, deadline, problem, judge)


# --- under runc: the processes seen at each sample -------------------------------------------


class ProcessSightings:
    """The argv of the code's processes (its uid) found in the container's cgroup at each sample."""

    def __init__(self, procs_file: Path | None, uid: int) -> None:
        self.procs_file = procs_file
        self.uid = uid
        self.seen: set[int] = set()
        self.record = empty_record("runc-cgroup", RUNC_SEES)
        self.record["note"] = RUNC_NOTE

    def sample(self) -> None:
        if self.procs_file is None:
            return
        try:
            pids = [int(line) for line in read_bytes(str(self.procs_file), 1 << 20).split()]
        except (OSError, ValueError):
            return
        for pid in pids:
            if pid in self.seen:
                continue
            self.seen.add(pid)
            try:
                status = read_bytes(f"/proc/{pid}/status", 1 << 16).decode("utf-8", "replace")
                uid_line = next(line for line in status.splitlines() if line.startswith("Uid:"))
                if int(uid_line.split()[1]) != self.uid:
                    continue
                argv = read_bytes(f"/proc/{pid}/cmdline", 4096).split(b"\0")
            except (OSError, ValueError, StopIteration, IndexError):
                continue
            words = [cut(word.decode("utf-8", "replace")) for word in argv if word][:MAX_ARGV]
            if words[:3] == ["python3", "-I", _RUNNER] or words[:2] == ["sh", "-c"] and _RUNNER in words:
                continue  # the runner itself, and its limits' wrapper: ours, not the code's
            add_seen(self.record, "processes", {"argv": words})

    def forget_so_far(self) -> None:
        """What was seen until now was ours, not the code's (pip installing its declared
        requirements, before the code starts): it is not recorded; those processes stay known."""
        self.sample()
        self.record = empty_record("runc-cgroup", RUNC_SEES)
        self.record["note"] = RUNC_NOTE

    def finish(self) -> ObservedRecord:
        self.sample()
        return self.record
