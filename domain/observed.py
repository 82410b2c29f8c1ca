"""What a run was observed to do, from outside the code, and where that differs from what was predicted.

The runner's record (``attempted``) is the program's own audit hook: the code can reach it, so it
is self-reported. The **observed** record is made by the sandbox from what the code cannot reach
(gVisor's system-call trace, written on the host by gVisor's kernel; under runc, the processes
the supervisor sees in the container's cgroup), and is labelled a fact. Its shape is
``ObservedRecord``; every list is bounded (``MAX_LISTED`` entries, strings cut at ``MAX_TEXT``)
and ``counts`` says how many there were in all.

A **divergence** is an observed effect the assessment did not predict at the level it gave: code
rated below HIGH runs with no person asked, so a shell executed, a sensitive path opened, a
connection out, a file deleted or renamed outside the run's folders, or a signal sent beyond the
code's own processes means the verdict was wrong for this code. ``divergences`` is the rule, pure.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from typing import Any

from typing_extensions import NotRequired, TypedDict

from .assessment import Finding
from .levels import RiskLevel

MAX_LISTED = 50
MAX_TEXT = 512
MAX_ARGV = 16
#: The folders a run may use as its own: its working directory and its scratch folder.
OWN_FOLDERS = ("/workspace", "/tmp")
#: Programs whose execution by code rated below HIGH is a divergence: a shell, or a tool that
#: reaches out or takes the host (the analysis would have rated a visible call to one HIGH).
SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "csh", "tcsh", "fish", "busybox"})
REACHING_TOOLS = frozenset({"curl", "wget", "nc", "ncat", "netcat", "socat", "ssh", "scp", "telnet", "python", "python3", "perl", "ruby", "crontab", "sudo", "su"})
#: Paths whose opening by code rated below HIGH is a divergence (a part of the path, or its start).
SENSITIVE_PARTS = ("/.ssh/", "/.ssh", "/.aws/", "/.gnupg/", "/.config/gcloud", "/.kube/", "/.docker/config.json", "/.netrc",
                   "/.bash_history", "/.bashrc", "/.profile", "/.pgpass", "authorized_keys", "id_rsa", "id_ed25519")
SENSITIVE_STARTS = ("/root/", "/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/cron", "/var/spool/cron", "/etc/ssh/",
                    "/proc/1/", "/var/run/docker.sock", "/run/docker.sock", "/etc/passwd-", "/home/")


class ProcessSeen(TypedDict):
    argv: list[str]
    path: NotRequired[str]  # the program executed (gVisor); absent when only its argv was seen (runc)


class FileSeen(TypedDict):
    path: str
    access: str  # "read" | "write"
    ok: bool  # False: the call failed (the file was absent, or refused): the attempt is still a fact


class RemovalSeen(TypedDict):
    path: str
    operation: str  # "unlink" | "rmdir" | "rename"
    ok: bool
    to: NotRequired[str]  # a rename's new name


class ConnectionSeen(TypedDict):
    family: str
    address: str
    port: NotRequired[int]
    ok: bool
    via: NotRequired[str]  # "sendto" | "sendmsg": a datagram sent to the address, with no connect


class SignalSeen(TypedDict):
    target: int
    signal: int
    ok: bool
    own: bool  # the target is one of the code's own processes (or its own group)


class ObservedRecord(TypedDict):
    """The observed record, on ``Completed``/``Terminated`` (version 2) beside ``attempted``."""

    fact: bool  # always True: observed from outside the code, not reported by it
    source: str  # "gvisor-strace" | "runc-cgroup" | "none"
    sees: list[str]  # the categories this source can see at all (the rest are empty by construction)
    complete: bool
    processes: list[ProcessSeen]
    files: list[FileSeen]
    removed: list[RemovalSeen]
    connections: list[ConnectionSeen]
    signals: list[SignalSeen]
    counts: dict[str, int]
    problem: NotRequired[str]  # why it is not complete
    note: NotRequired[str]  # where it is thinner than gVisor's


class DivergenceRecord(TypedDict):
    """One observed effect the assessment did not predict at its level (``Diverged``)."""

    effect: str  # "shell" | "program" | "sensitive_path" | "connection" | "removal" | "signal"
    detail: str


CATEGORIES = ("processes", "files", "removed", "connections", "signals")


def empty_record(source: str, sees: tuple[str, ...], complete: bool = True) -> ObservedRecord:
    return {
        "fact": True, "source": source, "sees": list(sees), "complete": complete,
        "processes": [], "files": [], "removed": [], "connections": [], "signals": [],
        "counts": {name: 0 for name in CATEGORIES},
    }


def add_seen(record: ObservedRecord, category: str, entry: Any) -> None:
    """Count ``entry`` under ``category`` and keep it if the list has room and it is new."""
    record["counts"][category] = record["counts"].get(category, 0) + 1
    listed: list[Any] = record[category]  # type: ignore[literal-required]
    if len(listed) < MAX_LISTED and entry not in listed:
        listed.append(entry)


def cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def inside_own_folders(path: str) -> bool:
    """Inside the run's own folders, not one of them: removing ``/workspace`` itself (the sandbox's
    home: what deleting ``~`` does) is not the ordinary tidying of its own files."""
    normal = posixpath.normpath(path)
    return any(normal.startswith(folder + "/") for folder in OWN_FOLDERS)


def is_sensitive(path: str) -> bool:
    normal = posixpath.normpath(path)
    return normal.startswith(SENSITIVE_STARTS) or any(part in normal + ("/" if part.endswith("/") else "") for part in SENSITIVE_PARTS)


#: What a finding must speak of for an effect of each kind to count as predicted (MEDIUM code whose
#: assessment said "runs a command" was predicted to execute one; LOW code has no such finding).
PREDICTED_BY = {
    "shell": ("command", "subprocess", "shell", "exec", "spawn", "process", "os.system", "b60"),
    "program": ("command", "subprocess", "shell", "exec", "spawn", "process", "os.system", "b60"),
    "sensitive_path": ("sensitive", "credential", "ssh", "secret", "key"),
    "connection": ("network", "socket", "url", "http", "connect", "request", "download"),
    "removal": ("delete", "remove", "unlink", "rmtree", "rename"),
    "signal": ("signal", "kill"),
}


def _predicted(effect: str, findings: Sequence[Finding]) -> bool:
    words = PREDICTED_BY.get(effect, ())
    return any(
        finding.level is not RiskLevel.LOW and any(word in f"{finding.rule_id} {finding.message}".lower() for word in words)
        for finding in findings
    )


def divergences(level: RiskLevel, observed: ObservedRecord | None, findings: Sequence[Finding] = ()) -> list[DivergenceRecord]:
    """The observed effects that code rated ``level`` was not predicted to have: none for HIGH
    and BLOCKED code (a person saw it before it ran), nor for a run observed by nothing; at
    MEDIUM, none of a kind a MEDIUM finding spoke of (``PREDICTED_BY``)."""
    if observed is None or level in (RiskLevel.HIGH, RiskLevel.BLOCKED):
        return []
    found: list[DivergenceRecord] = []
    for process in observed["processes"]:
        program = posixpath.basename(process.get("path") or (process["argv"][0] if process["argv"] else ""))
        if program in SHELLS:
            found.append({"effect": "shell", "detail": cut(f"executed a shell: {' '.join(process['argv'])}")})
        elif program in REACHING_TOOLS:
            found.append({"effect": "program", "detail": cut(f"executed {program}: {' '.join(process['argv'])}")})
    for seen in observed["files"]:
        if seen.get("sensitive") or is_sensitive(seen["path"]):
            found.append({"effect": "sensitive_path", "detail": cut(f"opened {seen['path']} to {seen['access']}")})
    for connection in observed["connections"]:
        where = connection["address"] + (f":{connection['port']}" if "port" in connection else "")
        verb = f"sent a datagram ({connection['via']}) to" if "via" in connection else "connected to"
        found.append({"effect": "connection", "detail": cut(f"{verb} {where} ({connection['family']})")})
    for removal in observed["removed"]:
        if not inside_own_folders(removal["path"]):
            found.append({"effect": "removal", "detail": cut(f"{removal['operation']} {removal['path']}, not inside its own folders")})
    for signal in observed["signals"]:
        if not signal["own"]:
            found.append({"effect": "signal", "detail": f"sent signal {signal['signal']} to {signal['target']} (beyond its own processes)"})
    return [divergence for divergence in found if not _predicted(divergence["effect"], findings)][:MAX_LISTED]


def floor_finding_message(level: str, when: str) -> str:
    return (
        f"this code was seen, when it ran as {level} ({when}), doing what its assessment did not predict "
        "(domain.observed): it is rated at least HIGH from then on; a person must read it"
    )
