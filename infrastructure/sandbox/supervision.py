"""The supervision of one run: its commands run by ``exec`` in the prepared container, watched live.

While a command runs, the supervisor reads the container's cgroup files every sampling interval,
hands each reading to the observer, and kills the container the moment a limit is crossed: memory
(the kernel's OOM kill), CPU time, wall time, pids (a refused fork), output size, disk (a full
tmpfs). With requirements, pip runs first through the egress proxy (its own phase, same limits).

Under gVisor (decision 0013) memory and CPU are still read from the container's host cgroup (which
holds gVisor's sandbox and gofer processes, so it counts what the host really pays); what only
gVisor's kernel knows, the code's task count and its tmpfs mounts, comes from the keeper's watch
(payload/watch.py), and the files left are surveyed from inside once the code has ended.
"""

from __future__ import annotations

import calendar
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from mai_safety.application.ports import Observer, OutputListener, PreparedRun, RunOutcome
from mai_safety.domain.limits import ResourceLimits
from mai_safety.domain.supervision import Peaks, Usage, Violation, find_violation

from .capture import DEPS_TARGET, PIP_OUTPUT, OutputCapture, WatchLines, close_attached, dependencies_record, pip_command
from .cgroups import CgroupReader
from .containers import CODE_USER, KEEPER_USER, WRITABLE, RunHandle, kill
from .egress import egress_record
from .errors import BestEffort, refused
from .engine_events import ExecEnds
from .observation import OBSERVED_RUNTIME, PathJudge, ProcessSightings, read_observed
from .primed import CODE_ENVIRONMENT
from .runtimes import GVISOR_HINT, GVISOR_RUNTIME, gvisor_death
from .survey import disk_of, survey_inside, what_was_left

#: Under gVisor a command's stream may outlive the killed sandbox this long before it is closed.
_DEAD_STREAM_S = 0.5
#: Docker flags an OOM kill from an event of its own, which can arrive after the exit it caused
#: (seen under load: a sandbox killed by the memory limit read as exit 137, not yet OOMKilled). A
#: sandbox that died killed is asked again this many times, 0.1 s apart, before its death is unknown.
_OOM_FLAG_TRIES = 10


@dataclass(frozen=True)
class Phase:
    """How one command in the container ended."""

    capture: OutputCapture
    violation: Violation | None
    cancelled: bool
    exit_code: int | None
    lost: str | None = None


@dataclass
class _Watched:
    """What every phase of one run shares."""

    handle: RunHandle
    cgroup: CgroupReader
    limits: ResourceLimits
    observer: Observer
    started: float
    peaks: Peaks
    sightings: ProcessSightings | None = None  # under runc: the code's processes seen at each sample


class ContainerSupervisor:
    """Runs a prepared run's commands in its container and keeps them inside its limits (the
    application's Supervisor, application.supervision, records the run on the ledger).
    ``client``: the engine's, asked when needed; ``gvisor``: this engine's gvisor_status()."""

    def __init__(
        self,
        client: Callable[[], Any],
        sample_interval_s: float,
        gvisor: Callable[[], dict[str, Any]],
        judge: PathJudge | None = None,
        ends: ExecEnds | None = None,
    ) -> None:
        """``judge``: the policy's sensitive-path model, for the files the observed record lists.
        ``ends``: the engine's announced ends of commands (engine_events.py); without, each is asked."""
        self._client = client
        self.sample_interval_s = sample_interval_s
        self._gvisor = gvisor
        self._judge = judge
        self._ends = ends

    def run(self, prepared: PreparedRun, observer: Observer, output: OutputListener | None = None) -> RunOutcome:
        handle: RunHandle = prepared.handle
        container = handle.container
        with refused("cannot read the sandbox's cgroups", also=(OSError,)):
            cgroup = handle.cgroup or CgroupReader(int(container.attrs["State"]["Pid"]))
        run = _Watched(handle, cgroup, prepared.limits, observer, time.monotonic(), Peaks())
        if not handle.gvisor:
            run.sightings = ProcessSightings(_procs_file(cgroup), int(CODE_USER.split(":")[0]))
        outcome = self._supervised(run, output)
        return replace(outcome, observed=self._observed(run, prepared.runtime or {}))

    def _observed(self, run: _Watched, runtime: dict[str, Any]) -> Any:
        """The observed record (decision 0044): gVisor's trace, or under runc the processes seen."""
        if run.sightings is not None:
            return run.sightings.finish()
        if runtime.get("engine_runtime") != OBSERVED_RUNTIME:
            return None  # gVisor without its trace: status says so; nothing was observed
        directory = self._gvisor().get("observed", {}).get("log_directory")
        if not directory:
            return None
        return read_observed(Path(directory), run.handle.container.id, judge=self._judge, since=_created(run.handle.container))

    def _supervised(self, run: _Watched, output: OutputListener | None) -> RunOutcome:
        handle, cgroup, container = run.handle, run.cgroup, run.handle.container
        observations: dict[str, Any] = {}
        network = handle.network
        if handle.gvisor:
            handle.watch = WatchLines()
            primed, handle.primed_watch = handle.primed_watch, None
            if primed is not None and primed.start(self.sample_interval_s):
                threading.Thread(target=handle.watch.consume, args=(primed.attached,), daemon=True).start()
            else:  # started ahead in a pool container (primed.py), or by exec now
                threading.Thread(target=self._watch, args=(container, handle.watch), daemon=True).start()
        if network.requirements:
            phase = self._phase(
                run, pip_command(network, handle.proxy_url), {"HOME": "/workspace", "PYTHONPATH": "/opt/pip"},
                OutputCapture(PIP_OUTPUT),
            )
            observations["dependencies"] = dependencies_record(handle.root, network, phase.exit_code, phase.capture)
            if run.sightings is not None:
                run.sightings.forget_so_far()  # pip's processes are ours, not the code's
            if phase.violation is not None or phase.cancelled or phase.lost or phase.exit_code != 0:
                return self._finish(run, phase, observations, "dependencies_failed")
        environment = dict(CODE_ENVIRONMENT)
        if network.requirements:
            environment["MAI_SAFETY_DEPS"] = DEPS_TARGET
        phase = self._phase(run, _code_command(handle), environment, OutputCapture(run.limits.output_bytes, output), last=True)
        assert handle.feed is not None
        attempted = observations["attempted"] = handle.feed.close()
        attempted["channel"] = (
            "unix socket /sandbox/record.sock through gVisor's gofer" if handle.gvisor else "unix socket /sandbox/record.sock"
        )
        if handle.gvisor and not attempted.get("complete", True) and not self._gvisor().get("record_socket"):
            attempted["problem"] += (
                f"; {GVISOR_RUNTIME} is registered without --host-uds=open, so no record can leave the sandbox ({GVISOR_HINT})"
            )
        if phase.violation is None and not phase.cancelled and phase.lost is None:
            observations.update(what_was_left(handle, cgroup))
        return self._finish(run, phase, observations, None)

    def _phase(
        self, run: _Watched, command: list[str], environment: dict[str, str], capture: OutputCapture, last: bool = False
    ) -> Phase:
        """Run one command in the container under supervision, until it ends or a limit is crossed.
        ``last``: the code's own command, after which (under gVisor) the survey runs inside."""
        handle, limits = run.handle, run.limits
        container = handle.container
        client = self._client()
        primed, handle.primed = (handle.primed if last and environment == CODE_ENVIRONMENT else None), None
        began = time.monotonic()  # the command cannot end before this: its end is announced after
        if primed is not None and primed.start(handle.cpu_rlimit, handle.nproc):
            exec_id, attached = primed.exec_id, primed.attached  # started ahead, now given its run
        else:
            if primed is not None:
                primed.close()
                if handle.feed is not None:  # the gone runner took the record's socket, connected ahead
                    handle.feed = handle.feed.renewed()
            with refused("Docker failed to start the code"):
                exec_id = client.api.exec_create(
                    container.id, command, user=CODE_USER, workdir="/workspace", environment=environment
                )["Id"]
                attached = client.api.exec_start(exec_id, socket=True)
        reader = threading.Thread(target=capture.consume, args=(attached,), daemon=True)
        reader.start()
        violation: Violation | None = None
        cancelled = False
        while True:
            remaining = limits.timeout_s - (time.monotonic() - run.started)
            ended = capture.stop.wait(max(min(self.sample_interval_s, remaining), 0))
            usage = self._usage(run, capture)
            run.peaks.add(usage)
            violation = find_violation(limits, usage)
            if violation is not None or ended or handle.sandbox_ended:
                break
            if not run.observer(usage):
                cancelled = True
                break
        if violation is not None or cancelled:
            kill(container)
        if handle.gvisor and (violation is not None or cancelled or handle.sandbox_ended):
            # Under runsc the exec's stream can outlive the killed sandbox by half a minute (until the
            # engine's shim gives up on it): nothing more can come from a dead sandbox, so close it.
            reader.join(_DEAD_STREAM_S)
            if reader.is_alive():
                close_attached(attached)
        reader.join(30)
        if violation is None and not cancelled and handle.gvisor:
            # The command ended by itself: one last reading catches an OOM kill in its final moments.
            # (Under runc the loop ends only on its reading taken once the output had ended: that is it.)
            self._gvisor_after(handle, last)
            final = self._usage(run, capture)
            run.peaks.add(final)
            late = find_violation(limits, final)
            if late is not None and late.reason in ("memory", "pids", "disk", "output_limit", "timeout"):
                violation = late  # "timeout": the keeper ended the container at the run's deadline
        exit_code = self._exit_code(exec_id, began)
        lost = None
        if violation is None and not cancelled and handle.sandbox_ended:
            # gVisor's kernel ended under the code: the engine answers, the sandbox is gone. The
            # command's status, if the engine gives one, is runsc's own (127: its wait for the
            # program failed with the sandbox), not the program's: the keeper holds a container
            # open past the code's end, so one that ended under a command we neither stopped nor
            # timed out ended under the program. (Seen under load: `completed`, exit status 127.)
            exit_code = None
            if handle.sandbox_exit == 137 and not handle.oom_killed:
                self._await_oom_flag(handle)
            violation = gvisor_death(handle.oom_killed, limits, run.peaks, time.monotonic() - run.started, handle.host_tasks)
            if violation is None:
                lost = f"gVisor's sandbox ended by itself (exit status {handle.sandbox_exit}) before the program did"
        elif exit_code is None and violation is None and not cancelled:
            # The stream ended but the engine cannot say how the program ended: we lost the engine,
            # not the program. The keeper still ends the container at its deadline.
            lost = "the connection to Docker ended before the program's exit status could be read"
            kill(container)
        return Phase(capture, violation, cancelled, exit_code, lost)

    def _finish(
        self, run: _Watched, phase: Phase, observations: dict[str, Any], failed_reason: str | None
    ) -> RunOutcome:
        handle = run.handle
        elapsed = time.monotonic() - run.started
        if handle.proxy is not None:
            if phase.violation is not None or phase.cancelled:
                kill(handle.container)  # its connections close with it, before the proxy's log is read
            observations["network"] = egress_record(handle)
        violation = phase.violation
        if phase.lost is not None:
            reason, detail = "supervision_lost", phase.lost
        elif phase.cancelled:
            reason, detail = "cancelled", "cancelled"
        elif violation is not None:
            reason, detail = violation.reason, violation.detail
        elif failed_reason is not None:
            reason, detail = failed_reason, "installing the requirements failed: " + phase.capture.text("stderr")[-500:]
        else:
            reason, detail = None, ""
        capture = phase.capture
        return RunOutcome(
            exit_code=phase.exit_code,
            stdout=capture.text("stdout") if failed_reason is None else "",
            stderr=capture.text("stderr") if failed_reason is None else "",
            output_bytes=capture.total if failed_reason is None else 0,
            output_truncated=capture.overflowed and failed_reason is None,
            duration_s=elapsed,
            termination_reason=reason,
            detail=detail,
            violation=violation.to_dict() if violation else None,
            peaks=run.peaks.to_dict(),
            observations=observations,
            files_out=tuple(handle.collected.files) if handle.collected is not None else (),
        )

    def _usage(self, run: _Watched, capture: OutputCapture) -> Usage:
        handle = run.handle
        elapsed = time.monotonic() - run.started
        try:
            counters = run.cgroup.read()
        except (OSError, ValueError):
            counters = None
        if handle.gvisor:
            if counters is not None and not run.cgroup.exists():
                counters = None
            if counters is None:
                self._check_sandbox(handle)  # gone with gVisor's kernel: the memory limit, or the deadline
            else:
                handle.host_tasks = (counters.pids, counters.pids_limit_hits)
            return _gvisor_usage(counters, handle, run.limits, capture, elapsed)
        if run.sightings is not None:
            run.sightings.sample()
        root = handle.root
        assert root is not None
        disk_used, disk_full = 0, False
        for mount in WRITABLE:
            try:
                used, size = root.disk_use(mount)
            except OSError:
                continue
            disk_used += used
            disk_full = disk_full or (size > 0 and size - used < 64 * 1024)
        return Usage(
            elapsed_s=elapsed,
            cpu_seconds=counters.cpu_seconds if counters else 0.0,
            memory_bytes=counters.memory_bytes if counters else 0,
            memory_peak_bytes=counters.memory_peak_bytes if counters else 0,
            pids=max((counters.pids if counters else 0) - 2, 0),
            disk_bytes=disk_used,
            disk_full=disk_full,
            output_bytes=capture.total,
            oom_kills=counters.oom_kills if counters else 0,
            pids_limit_hits=counters.pids_limit_hits if counters else 0,
            io_read_bytes=counters.io_read_bytes if counters else 0,
            io_write_bytes=counters.io_write_bytes if counters else 0,
        )

    # --- under gVisor: what only its kernel knows, asked from inside ---------------------------

    def _watch(self, container: Any, watch: WatchLines) -> None:
        """The keeper's watch (payload/watch.py), as uid 1001: the code can neither signal nor trace it."""
        client = self._client()
        with BestEffort(OSError) as attempt:
            exec_id = client.api.exec_create(
                container.id, ["python3", "-I", "-S", "/sandbox/watch.py", f"{self.sample_interval_s:g}"],
                user=KEEPER_USER, workdir="/",
            )["Id"]
            attached = client.api.exec_start(exec_id, socket=True)
        if attempt.failed:
            return  # the container is gone already; the run's own command says how
        watch.consume(attached)

    def _check_sandbox(self, handle: RunHandle) -> None:
        """Whether the container still runs; if not, whether the host OOM-killed gVisor's kernel
        (under runsc the memory limit ends the whole sandbox, not one process in it)."""
        if handle.sandbox_ended:
            return
        with BestEffort() as attempt:
            handle.container.reload()
            state = handle.container.attrs.get("State", {})
        if attempt.gone:
            handle.sandbox_ended = True
            return
        if attempt.failed:
            return
        if not state.get("Running"):
            handle.sandbox_ended = True
            handle.oom_killed = bool(state.get("OOMKilled"))
            handle.sandbox_exit = state.get("ExitCode")

    def _await_oom_flag(self, handle: RunHandle) -> None:
        """A sandbox that died killed (137): wait a moment for the engine's OOM event to mark it."""
        for _ in range(_OOM_FLAG_TRIES):
            time.sleep(0.1)
            with BestEffort() as attempt:
                handle.container.reload()
                handle.oom_killed = bool(handle.container.attrs.get("State", {}).get("OOMKilled"))
            if attempt.failed or handle.oom_killed:
                return

    def _gvisor_after(self, handle: RunHandle, last: bool) -> None:
        """After a command ended by itself under gVisor: did gVisor's kernel die of the memory limit
        (the container ends with it), and if not, what did the code leave (the survey)?"""
        self._check_sandbox(handle)
        if handle.sandbox_ended:
            return
        if last:
            primed, handle.primed_survey = handle.primed_survey, None
            handle.survey = survey_inside(self._client(), handle.container, handle.workspace, primed)
            disk = disk_of(handle.survey)
            if disk is not None:
                handle.survey_disk = disk

    def _exit_code(self, exec_id: str, began: float) -> int | None:
        """How the command ended, as the engine says: announced on its event stream, else asked."""
        announced = self._ends.exit_code(exec_id, began) if self._ends is not None else None
        if announced is not None:
            return announced
        client = self._client()
        for _ in range(50):
            with BestEffort() as attempt:
                state = client.api.exec_inspect(exec_id)
            if attempt.failed:
                return None
            if not state.get("Running"):
                return state.get("ExitCode")
            time.sleep(0.02)
        return None


def _created(container: Any) -> float | None:
    """When the engine made the container (epoch seconds), from its inspect; None if unreadable."""
    try:
        created = str(container.attrs["Created"])[:19]  # 2026-11-27T04:12:13.123456789Z: to the second, UTC
        return calendar.timegm(time.strptime(created, "%Y-%m-%dT%H:%M:%S"))
    except (AttributeError, KeyError, TypeError, ValueError):
        return None


def _procs_file(cgroup: CgroupReader) -> Path | None:
    """The container's list of processes: cgroup v2's, or v1's pids controller's."""
    folder = cgroup.v2 if cgroup.v2 is not None else cgroup.v1.get("pids")
    return folder / "cgroup.procs" if folder is not None else None


def _code_command(handle: RunHandle) -> list[str]:
    """The runner, started on the code; in a pool container, under the run's own rlimits."""
    command = ["python3", "-I", "/sandbox/runner.py"]
    if handle.cpu_rlimit is None:
        return command
    # A pool container was made before the run was known: its CPU-time limit is set here, soft then
    # hard, before the code starts; the code cannot raise a hard limit.
    soft, hard = handle.cpu_rlimit
    limit = f"ulimit -S -t {soft} && ulimit -H -t {hard}"
    if handle.nproc is not None:
        limit += f" && ulimit -p {handle.nproc}"
    return ["sh", "-c", f'{limit} && exec "$@"', "sh", *command]


def _gvisor_usage(counters: Any, handle: RunHandle, limits: ResourceLimits, capture: OutputCapture, elapsed: float) -> Usage:
    """Memory and CPU from the host cgroup (gVisor's kernel included); the code's tasks and the
    tmpfs mounts from the keeper's watch, or from the survey's own reading once it has run."""
    watch = handle.watch or WatchLines()
    tasks, disk_used, disk_full = watch.tasks, watch.disk_used, watch.disk_full
    if handle.survey_disk is not None:
        disk_used, disk_full = handle.survey_disk
    return Usage(
        elapsed_s=elapsed,
        cpu_seconds=counters.cpu_seconds if counters else 0.0,
        memory_bytes=counters.memory_bytes if counters else 0,
        memory_peak_bytes=counters.memory_peak_bytes if counters else 0,
        pids=tasks,
        disk_bytes=disk_used,
        disk_full=disk_full,
        output_bytes=capture.total,
        # gVisor's kernel itself is what the host OOM-kills: the container ends with it.
        oom_kills=max(counters.oom_kills if counters else 0, int(handle.oom_killed)),
        # RLIMIT_NPROC refuses the code's next task once it holds the limit: that is the wall.
        pids_limit_hits=int(tasks >= limits.pids),
        io_read_bytes=counters.io_read_bytes if counters else 0,
        io_write_bytes=counters.io_write_bytes if counters else 0,
    )

