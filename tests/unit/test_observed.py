"""The observed record's parser (gVisor's strace lines, as Debian's runsc 0.0~20221219 writes them)
and the rule that sets what was observed against what was predicted. Pure: no I/O, bar reading
scripts/setup.sh for the calls it registers."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mai_safety.domain.levels import RiskLevel
from mai_safety.domain.observed import MAX_LISTED, divergences
from mai_safety.infrastructure.sandbox.payload import survey, watch
from mai_safety.infrastructure.sandbox.observation import (
    STALE_LOG_S,
    ProcessSightings,
    TRACED_SYSCALLS,
    TraceParser,
    find_logs,
    parse_trace,
    read_observed,
)

PREFIX = "I1126 10:01:12.282577   11206 strace.go:608] "


def x(pid: int, text: str) -> str:
    return f"{PREFIX}[{pid:4d}:{pid:4d}] python3 X {text}"


RUNNER_STARTS = [
    x(4, "openat(AT_FDCWD /workspace, 0x7f67fcb6bf10 /sandbox/runner.py, O_RDONLY|O_CLOEXEC, 0o0) = 3 (0x3) (242.63µs)"),
    x(4, "openat(AT_FDCWD /workspace, 0x7f67fcb8b7a0 .ssh/id_rsa, O_WRONLY|O_CLOEXEC|O_CREAT|O_TRUNC, 0o666) = 4 (0x4) (16.9µs)"),
    x(4, "connect(0x3 socket:[1], 0x7f8fce52a720 {Family: AF_UNIX, Addr: \"/sandbox/record.sock\"}, 0x17) = 0 (0x0) (465.8µs)"),
    x(4, "openat(AT_FDCWD /workspace, 0x7f67fca84990 /sandbox/main.py, O_RDONLY|O_CLOEXEC, 0o0) = 4 (0x4) (274.3µs)"),
]
THE_CODE = [
    x(4, "vfork() = 6 (0x6) (238.5µs)"),
    x(6, 'execve(0x7ff929707b70 /usr/local/sbin/sh, 0x7ff929707bd0 ["sh", "-c", "echo hidden"], 0x7f5996307d08 ["HOME=/workspace"]) = 0 (0x0) errno=2 (no such file or directory) (258.7µs)'),
    x(6, 'execve(0x7ff9298a0380 /usr/bin/sh, 0x7ff929707bd0 ["sh", "-c", "echo hidden"], 0x7f5996307d08 ["HOME=/workspace"]) = 0 (0x0) (746.8µs)'),
    x(4, "openat(0x4 /workspace/.ssh, 0x7f3a614f7cb0 id_rsa, O_RDONLY|O_CLOEXEC, 0o0) = 6 (0x6) (3.6µs)"),
    x(4, "openat(AT_FDCWD /workspace, 0x7ff929902ba0 /usr/lib/python3.11/os.py, O_RDONLY|O_CLOEXEC, 0o0) = 3 (0x3) (344.5µs)"),
    x(4, "openat(AT_FDCWD /workspace, 0x7ff929902ba0 /etc/shadow, O_RDONLY|O_CLOEXEC, 0o0) = 0 (0x0) errno=13 (permission denied) (344.5µs)"),
    x(4, "connect(0x3 socket:[1], 0x7f59963076f0 {Family: AF_INET, Addr: 10.1.2.3, Port: 4444}, 0x10) = 0 (0x0) errno=113 (no route to host) (135.3µs)"),
    x(4, "unlinkat(AT_FDCWD /workspace, 0x7f1 ../../etc/hosts, 0x0) = 0 (0x0) errno=30 (read-only file system) (1µs)"),
    x(4, "unlinkat(AT_FDCWD /workspace, 0x7f1 scratch.txt, 0x0) = 0 (0x0) (1µs)"),
    x(4, "renameat2(AT_FDCWD /workspace, 0x7f1 a.txt, AT_FDCWD /workspace, 0x7f2 /etc/cron.d/job, 0x0) = 0 (0x0) errno=30 (read-only file system) (1µs)"),
    x(4, "kill(0xffffffffffffffff, 0x9) = 0 (0x0) errno=1 (operation not permitted) (1µs)"),
    x(4, "kill(0x6, 0xf) = 0 (0x0) (1µs)"),
]
KEEPER = [
    x(5, "openat(0x4 /workspace/.ssh, 0x7f3a614f7cb0 id_rsa, O_RDONLY|O_CLOEXEC|O_NOFOLLOW, 0o0) = 6 (0x6) (3.6µs)"),
    x(5, 'execve(0x7ff9298a0380 /usr/bin/sh, 0x7ff929707bd0 ["sh", "-c", "keeper"], 0x7f5996307d08 []) = 0 (0x0) (746.8µs)'),
]


def _record(lines: list[str]) -> dict:
    return dict(parse_trace(lines, time.monotonic() + 60))


def test_the_codes_shell_key_read_connection_removal_and_signals_are_observed() -> None:
    record = _record(RUNNER_STARTS + KEEPER + THE_CODE)
    assert record["fact"] is True and record["complete"] is True
    assert record["processes"] == [{"argv": ["sh", "-c", "echo hidden"], "path": "/usr/bin/sh"}]
    assert {"path": "/workspace/.ssh/id_rsa", "access": "read", "ok": True} in record["files"]
    assert {"path": "/etc/shadow", "access": "read", "ok": False} in record["files"]
    assert record["connections"] == [{"family": "AF_INET", "address": "10.1.2.3", "ok": False, "port": 4444}]
    assert {"path": "/etc/hosts", "operation": "unlink", "ok": False} in record["removed"]
    assert {"path": "/workspace/a.txt", "operation": "rename", "ok": False, "to": "/etc/cron.d/job"} in record["removed"]
    assert len(record["removed"]) == 2  # a file of its own folder removed is not listed
    assert {"target": -1, "signal": 9, "ok": False, "own": False} in record["signals"]
    assert {"target": 6, "signal": 15, "ok": True, "own": True} in record["signals"]


def test_processes_made_are_counted_threads_are_not_and_removing_the_home_folder_itself_is_listed() -> None:
    made = [x(4, f"fork() = {pid} (0x{pid:x}) (100µs)") for pid in range(10, 40)]
    threads = [x(4, f"clone(CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS, 0x7f1, 0x7f2, 0x7f3, 0x7f4) = {tid} (0x{tid:x}) (90µs)") for tid in range(50, 55)]
    home = [x(4, "rmdir(0x7f1 /workspace) = 0 (0x0) errno=16 (device or resource busy) (1µs)"), x(4, "rmdir(0x7f1 /workspace/cache) = 0 (0x0) (1µs)")]
    record = _record(RUNNER_STARTS + made + threads + home)
    assert record["counts"]["clones"] == 30  # the 30 processes, not the 5 threads
    assert record["removed"] == [{"path": "/workspace", "operation": "rmdir", "ok": False}]  # its own subfolder is not listed
    assert divergences(RiskLevel.LOW, record)[0]["effect"] == "removal"


def test_a_file_the_policys_path_model_marks_is_listed_even_in_its_own_folder_and_diverges() -> None:
    writes = [
        x(4, "openat(AT_FDCWD /workspace, 0x7f1 .config/systemd/user/sync.service, O_WRONLY|O_CREAT|O_TRUNC, 0o666) = 5 (0x5) (9µs)"),
        x(4, "openat(AT_FDCWD /workspace, 0x7f1 results.csv, O_WRONLY|O_CREAT|O_TRUNC, 0o666) = 5 (0x5) (9µs)"),
    ]
    marks = lambda path, access: access == "write" and "/.config/systemd/" in path  # noqa: E731 - the model, as a judge
    record = dict(parse_trace(RUNNER_STARTS + writes, time.monotonic() + 60, judge=marks))
    assert record["files"] == [{"path": "/workspace/.config/systemd/user/sync.service", "access": "write", "ok": True, "sensitive": True}]
    assert [d["effect"] for d in divergences(RiskLevel.LOW, record)] == ["sensitive_path"]
    assert _record(RUNNER_STARTS + writes)["files"] == []  # without the model, its own folder's files are its own


def test_the_runners_own_steps_and_the_keepers_processes_are_not_the_codes() -> None:
    record = _record(RUNNER_STARTS + KEEPER)
    assert record["processes"] == [] and record["files"] == [] and record["connections"] == []


def test_a_trace_that_never_shows_the_code_start_is_incomplete() -> None:
    record = _record(KEEPER)
    assert record["complete"] is False and "never showed the runner" in record["problem"]


def test_garbage_lines_are_counted_not_trusted() -> None:
    record = _record(RUNNER_STARTS + [PREFIX + "[   4:   4] python3 X execve(garbage", "\x00\xff" * 50] + THE_CODE)
    assert record["counts"]["malformed_lines"] == 1
    assert record["processes"]


def test_every_list_is_bounded_and_counted() -> None:
    opens = [x(4, f"openat(AT_FDCWD /workspace, 0x1 /etc/f{n}, O_RDONLY, 0o0) = 3 (0x3) (1µs)") for n in range(500)]
    record = _record(RUNNER_STARTS + opens)
    assert len(record["files"]) == MAX_LISTED and record["counts"]["files"] == 500


def test_an_oversized_trace_is_cut_at_its_bound_and_recorded_as_incomplete(tmp_path: Path) -> None:
    container = "c" * 64
    log = tmp_path / "runsc.log.20261126-100111.750113.boot.txt"
    filler = [x(4, "openat(AT_FDCWD /workspace, 0x1 /usr/lib/x.py, O_RDONLY, 0o0) = 3 (0x3) (1µs)")] * 2000
    log.write_text("\n".join([f"I1126 main.go:217] Args: [runsc-sandbox boot {container}]", *RUNNER_STARTS, *filler, *THE_CODE]) + "\n")
    record = read_observed(tmp_path, container, max_bytes=64 * 1024)
    assert record["complete"] is False and "cut at 65536 bytes" in record["problem"]
    assert record["processes"] == []  # the shell came after the bound: not claimed, and the record says so
    assert not log.exists()  # read once, then removed


def test_no_trace_for_the_container_is_an_incomplete_record(tmp_path: Path) -> None:
    record = read_observed(tmp_path, "d" * 64)
    assert record["complete"] is False and "no trace" in record["problem"]


def test_low_code_seen_doing_the_unpredicted_diverges_and_high_code_does_not() -> None:
    record = TraceParser()
    for line in RUNNER_STARTS + THE_CODE:
        record.feed(line)
    observed = record.finish()
    effects = {divergence["effect"] for divergence in divergences(RiskLevel.LOW, observed)}
    assert effects == {"shell", "sensitive_path", "connection", "removal", "signal"}
    assert divergences(RiskLevel.HIGH, observed) == []
    assert divergences(RiskLevel.LOW, None) == []


def test_ordinary_code_does_not_diverge() -> None:
    assert divergences(RiskLevel.LOW, _record(RUNNER_STARTS + [THE_CODE[4]])) == []  # type: ignore[arg-type]


def test_a_divergence_raises_a_diverged_alert() -> None:
    from mai_safety.domain.assessment import Assessment, Submission
    from mai_safety.domain.execution import Execution
    from mai_safety.domain.levels import Provenance
    from mai_safety.domain.limits import ResourceLimits
    from mai_safety.domain.levels import TrustLevel
    from mai_safety.infrastructure.alerts.alerts import alert_for
    from mai_safety.infrastructure.alerts.policy import AlertsPolicy, WebhookPolicy

    execution = Execution.assess(Submission.from_bytes(b"print(1)\n", Provenance.MAI, 1 << 20), Assessment(RiskLevel.LOW))
    execution.start(container_id="c", image="i", limits=ResourceLimits(1, 1 << 26, 10, 5.0, 1 << 16, 1 << 20), trust=TrustLevel.STANDARD)
    execution.complete({"exit_code": 0}, _record(RUNNER_STARTS + THE_CODE))  # type: ignore[arg-type]
    execution.diverge(divergences(execution.level, execution.observed))
    diverged = execution.collect_events()[-1]
    policy = AlertsPolicy(WebhookPolicy.__new__(WebhookPolicy), frozenset({"diverged"}), frozenset(), 0.5)
    alert = alert_for(diverged, 7, policy)
    assert alert is not None and alert["kind"] == "diverged" and alert["details"]["level"] == "LOW"


def test_medium_code_whose_assessment_spoke_of_a_command_was_predicted_to_run_one() -> None:
    from mai_safety.domain.assessment import Finding

    observed = _record(RUNNER_STARTS + THE_CODE[:3])
    said = Finding("ast", "command-exec", RiskLevel.MEDIUM, "runs a command with os.system")
    assert divergences(RiskLevel.MEDIUM, observed, [said]) == []  # type: ignore[arg-type]
    assert [item["effect"] for item in divergences(RiskLevel.MEDIUM, observed, [])] == ["shell"]  # type: ignore[arg-type]


def test_a_datagram_sent_to_an_address_without_connect_is_a_connection_attempted() -> None:
    # UDP needs no connect: syslog, a DNS query, a raw send. sendto's address is decoded by gVisor's
    # trace; sendmsg's is not (listed with its address unknown); a send on a connected socket is not
    # listed again (its connect was).
    sends = [
        x(4, "sendto(0x3 socket:[1], 0xa5fc30, 0x1, 0x0, 0x7f393638b590 {Family: AF_INET, Addr: 203.0.113.7, Port: 514}, 0x10) = 0 (0x0) errno=113 (no route to host) (107.0µs)"),
        x(4, 'sendmsg(0x3 socket:[1], 0x7f393638b530 {name=0x7f393638b570, namelen=16, iovecs=0x7f8d77c48360 {base=0xa5fc60, len=1, "y"}, control={0x0 }, flags=0}, 0x0) = 0 (0x0) errno=113 (no route to host) (8.4µs)'),
        x(4, 'sendmsg(0x3 socket:[1], 0x7f393638b530 {name=0x0, namelen=0, iovecs=0x7f8d77c48360 {base=0xa5fc60, len=1, "y"}, control={0x0 }, flags=0}, 0x0) = 1 (0x1) (8.4µs)'),
        x(4, "sendto(0x3 socket:[1], 0xa5fc30, 0x1, 0x0, 0x0, 0x0) = 1 (0x1) (7.0µs)"),
        x(4, "sendto(0x3 socket:[1], 0xa5fc30, 0x1, 0x0, 0x7f39 {Family: AF_UNIX, Addr: \"/dev/log\"}, 0x10) = 1 (0x1) (7.0µs)"),
    ]
    record = _record(RUNNER_STARTS + sends)
    assert record["connections"] == [
        {"family": "AF_INET", "address": "203.0.113.7", "ok": False, "port": 514, "via": "sendto"},
        {"family": "unknown", "address": "(an address gVisor's trace does not decode)", "ok": False, "via": "sendmsg"},
    ]
    details = [d["detail"] for d in divergences(RiskLevel.LOW, record)]
    assert details[0] == "sent a datagram (sendto) to 203.0.113.7:514 (AF_INET)"


def test_setup_registers_the_calls_the_parser_reads() -> None:
    # scripts/setup.sh writes runsc-observed's registration; the list is written there and here,
    # and a call traced by one and not the other is either never seen or never read.
    setup = (Path(__file__).resolve().parents[2] / "scripts" / "setup.sh").read_text(encoding="utf-8")
    written = "".join(re.findall(r'"([a-z0-9,]+)"', setup.split("traced = (", 1)[1].split(")", 1)[0]))
    assert written == TRACED_SYSCALLS


def _log_named(folder: Path, booted: float, head: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(booted))
    log = folder / f"runsc.log.{stamp}.{int(booted * 1e6) % 1_000_000:06d}.boot.txt"
    log.write_text(f"I1126 main.go:217] Args: [runsc-sandbox boot {head}]\n")
    return log


def test_a_containers_log_is_looked_for_among_those_booted_since_it_was_made_then_among_all(tmp_path: Path) -> None:
    """The folder holds every sandbox's log for hours: those whose name says they booted since the
    container was made are read first; if none is its own (clocks or zones that disagree), all are."""
    made = time.time() - 30
    older = [_log_named(tmp_path, made - 3600 - n, "e" * 64) for n in range(50)]
    own = _log_named(tmp_path, made + 1, "a" * 64)
    assert find_logs(tmp_path, "a" * 64, since=made) == [own]
    # Named as if booted long before the container was made: found all the same, by reading every head.
    misnamed = _log_named(tmp_path, made - 7200, "b" * 64)
    assert find_logs(tmp_path, "b" * 64, since=made) == [misnamed]
    assert all(log.exists() for log in older)


def test_stale_logs_are_removed_whichever_way_the_log_is_found(tmp_path: Path) -> None:
    made = time.time() - 30
    stale = _log_named(tmp_path, time.time() - STALE_LOG_S - 600, "e" * 64)
    os.utime(stale, (time.time() - STALE_LOG_S - 600,) * 2)
    own = _log_named(tmp_path, made + 1, "a" * 64)
    assert find_logs(tmp_path, "a" * 64, since=made) == [own]
    assert not stale.exists()



@pytest.fixture()
def oddly_named() -> Iterator[subprocess.Popen[bytes]]:
    """A process that names itself with bytes that are not UTF-8 (prctl PR_SET_NAME, as any code may)."""
    hidden = subprocess.Popen(
        [sys.executable, "-c", "import ctypes, sys, time\n"
         "ctypes.CDLL(None).prctl(15, b'\\xff\\xfehidden', 0, 0, 0)\n"  # PR_SET_NAME
         "print('named', flush=True)\ntime.sleep(30)\n", "--quietly"],
        stdout=subprocess.PIPE,
    )
    try:
        assert hidden.stdout is not None and hidden.stdout.readline() == b"named\n"
        assert b"\xff\xfe" in Path(f"/proc/{hidden.pid}/status").read_bytes()
        yield hidden
    finally:
        hidden.kill()
        hidden.communicate()


def test_a_process_whose_name_is_not_utf8_is_seen_all_the_same(tmp_path: Path, oddly_named: subprocess.Popen[bytes]) -> None:
    """Under runc the processes are read from /proc (ProcessSightings). Such a name made /proc's
    status unreadable as text, and the process went unrecorded; it is read with those bytes replaced."""
    procs = tmp_path / "cgroup.procs"
    procs.write_text(f"{oddly_named.pid}\n")
    record = ProcessSightings(procs, os.getuid()).finish()
    assert [entry["argv"][-1] for entry in record["processes"]] == ["--quietly"]


@pytest.mark.parametrize("module", [survey, watch])
def test_inside_the_sandbox_such_a_process_is_counted_too(module: Any, oddly_named: subprocess.Popen[bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    """The survey after the code (which ends what the code left) and the gVisor watch (its tasks)
    read /proc inside the sandbox the same way: such a process was skipped by both."""
    monkeypatch.setattr(module, "CODE_UID", str(os.getuid()))
    monkeypatch.setattr(module.os, "listdir", lambda folder: [str(oddly_named.pid)])
    counted = module.code_processes() if module is survey else {oddly_named.pid: module.code_tasks()}
    assert counted == {oddly_named.pid: 1}
