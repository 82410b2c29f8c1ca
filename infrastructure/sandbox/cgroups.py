"""Reading a container's usage straight from its cgroup files (v1 and v2).

Measured against the Docker stats API in bench/supervision_bench.py: a read of these files costs
tens of microseconds, a one-shot stats call milliseconds, so the supervisor samples here. A pooled
run reads a few dozen of them on its path (the room count, its limits, two usage readings), so
they are read with ``os.open``/``os.read`` on text paths: 7 µs a file where ``Path.read_text``
took 18 (issue #29).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

_ROOT = "/sys/fs/cgroup"
#: The most read from one cgroup file: they hold a few lines (blkio's: a few per device).
_MAX_FILE_BYTES = 1 << 20


@dataclass(frozen=True)
class CgroupUsage:
    cpu_seconds: float
    memory_bytes: int
    memory_peak_bytes: int
    pids: int
    oom_kills: int
    pids_limit_hits: int
    io_read_bytes: int
    io_write_bytes: int


class CgroupReader:
    """Finds a process's cgroups once, then reads its usage on demand."""

    def __init__(self, pid: int) -> None:
        self._v1_folders: dict[str, str] = {}
        self._v2_folder: str | None = None
        for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():  # OSError: the process is gone
            _, controllers, path = line.split(":", 2)
            if "/.." in path:
                # Read from another cgroup namespace (a service container without the host's), the
                # path is relative to a root this process cannot see: refuse rather than guess.
                raise OSError(
                    f"process {pid}'s cgroup {path} lies outside this process's cgroup namespace: run the "
                    "supervisor in the host's (compose: cgroup: host; docs/decisions/0017)"
                )
            relative = path.strip("/")
            if controllers == "":
                for base in (f"{_ROOT}/unified", _ROOT):
                    folder = f"{base}/{relative}".rstrip("/")
                    if os.path.exists(f"{folder}/cgroup.procs"):
                        self._v2_folder = folder
                        break
            for controller in controllers.split(","):
                folder = f"{_ROOT}/{controller}/{relative}".rstrip("/")
                if controller and os.path.isdir(folder):
                    self._v1_folders[controller] = folder
        if self._v1_folders:
            # A hybrid host's "0::/" names the unified hierarchy's root, not this process's usage:
            # falling back to it once the v1 cgroup is gone would read the whole host's.
            self._v2_folder = None
        self._peak = 0

    @property
    def v1(self) -> dict[str, Path]:
        """cgroup v1's folder of each controller (none on a v2 host)."""
        return {controller: Path(folder) for controller, folder in self._v1_folders.items()}

    @property
    def v2(self) -> Path | None:
        """cgroup v2's folder (None on a v1 or hybrid host)."""
        return Path(self._v2_folder) if self._v2_folder is not None else None

    def exists(self) -> bool:
        """Whether the cgroup is still there (it goes with its last process)."""
        folders = list(self._v1_folders.values()) or ([self._v2_folder] if self._v2_folder else [])
        return any(os.path.isdir(folder) for folder in folders)

    def _v1(self, controller: str, name: str) -> str | None:
        base = self._v1_folders.get(controller)
        return _read(f"{base}/{name}") if base else None

    def _v2(self, name: str) -> str | None:
        return _read(f"{self._v2_folder}/{name}") if self._v2_folder else None

    def cpu_seconds(self) -> float:
        """The CPU time the cgroup's processes have used, alone (a session's after each cell)."""
        cpu = self._v1("cpuacct", "cpuacct.usage")
        if cpu is not None:
            return int(cpu) / 1e9
        return float(_keyed(self._v2("cpu.stat")).get("usage_usec", 0) / 1e6)

    def read(self) -> CgroupUsage:
        cpu_seconds = self.cpu_seconds()
        memory = self._v1("memory", "memory.usage_in_bytes") or self._v2("memory.current") or "0"
        peak = self._v1("memory", "memory.max_usage_in_bytes") or self._v2("memory.peak") or "0"
        oom = _keyed(self._v1("memory", "memory.oom_control") or self._v2("memory.events")).get("oom_kill", 0)
        pids_base = self._v1_folders.get("pids")
        pids = self._v1("pids", "pids.current") if pids_base else self._v2("pids.current")
        pid_events = self._v1("pids", "pids.events") if pids_base else self._v2("pids.events")
        read_bytes, write_bytes = self._io()
        self._peak = max(self._peak, int(memory), int(peak))
        return CgroupUsage(
            cpu_seconds=cpu_seconds,
            memory_bytes=int(memory),
            memory_peak_bytes=self._peak,
            pids=int(pids or 0),
            oom_kills=oom,
            pids_limit_hits=_keyed(pid_events).get("max", 0),
            io_read_bytes=read_bytes,
            io_write_bytes=write_bytes,
        )

    def memory(self) -> tuple[int | None, int]:
        """The memory limit the kernel holds this cgroup to now (None if unset) and its use: the two
        of ``limits()`` and ``read()`` a count of the host's room needs (admission.py), two reads."""
        limit = self._v1("memory", "memory.limit_in_bytes") or self._v2("memory.max")
        used = self._v1("memory", "memory.usage_in_bytes") or self._v2("memory.current") or "0"
        return (int(limit) if limit and limit.isdigit() else None), int(used)

    def limits(self) -> dict[str, int | float | None]:
        """The limits the kernel holds this cgroup to now: memory (bytes), CPUs (quota / period) and
        pids; None where a limit is unset or unreadable. What a run really got, read back."""
        memory = self._v1("memory", "memory.limit_in_bytes") or self._v2("memory.max")
        quota, period = self._v1("cpu", "cpu.cfs_quota_us"), self._v1("cpu", "cpu.cfs_period_us")
        if quota is None:
            quota, _, period = (self._v2("cpu.max") or "max 100000").partition(" ")
        pids_base = self._v1_folders.get("pids")
        pids = self._v1("pids", "pids.max") if pids_base else self._v2("pids.max")

        def number(text: str | None) -> int | None:
            return int(text) if text and text.lstrip("-").isdigit() and int(text) >= 0 else None

        cpu_quota, cpu_period = number(quota), number(period)
        return {
            "memory_bytes": number(memory),
            "cpus": round(cpu_quota / cpu_period, 3) if cpu_quota and cpu_period else None,
            "pids_max": number(pids),
        }

    def set_limits(self, memory_bytes: int, cpus: float, pids_max: int) -> None:
        """Hold the cgroup to new limits, as ``runc update`` does: memory with swap equal to it
        (v1 orders the two writes so that swap never drops below memory), the CPU quota over the
        current period, and pids. For a runtime the engine cannot update (gVisor's runsc, whose
        sandbox and gofer processes live in this cgroup). OSError when the kernel refuses."""
        memory = self._v1_folders.get("memory")
        if memory is not None:
            limit, swap = f"{memory}/memory.limit_in_bytes", f"{memory}/memory.memsw.limit_in_bytes"
            writes = [(limit, memory_bytes), (swap, memory_bytes)]
            if memory_bytes > int(_read_or_fail(limit)):
                writes.reverse()
            for path, value in writes:
                if os.path.exists(path):
                    _write(path, value)
            cpu = self._v1_folders["cpu"]
            period = int(_read_or_fail(f"{cpu}/cpu.cfs_period_us"))
            _write(f"{cpu}/cpu.cfs_quota_us", int(cpus * period))
            _write(f"{self._v1_folders['pids']}/pids.max", pids_max)
            return
        v2 = self._v2_folder
        if v2 is None:
            raise OSError("no cgroup found for this process")
        _write(f"{v2}/memory.max", memory_bytes)
        if os.path.exists(f"{v2}/memory.swap.max"):
            _write(f"{v2}/memory.swap.max", 0)
        period = int(_read_or_fail(f"{v2}/cpu.max").split()[1])
        _write(f"{v2}/cpu.max", f"{int(cpus * period)} {period}")
        _write(f"{v2}/pids.max", pids_max)

    def _io(self) -> tuple[int, int]:
        text = self._v1("blkio", "blkio.throttle.io_service_bytes")
        if text is not None:
            read = write = 0
            for line in text.splitlines():
                parts = line.split()
                if len(parts) == 3 and parts[1] == "Read":
                    read += int(parts[2])
                elif len(parts) == 3 and parts[1] == "Write":
                    write += int(parts[2])
            return read, write
        read = write = 0
        for line in (self._v2("io.stat") or "").splitlines():
            fields = dict(item.split("=", 1) for item in line.split()[1:] if "=" in item)
            read += int(fields.get("rbytes", 0))
            write += int(fields.get("wbytes", 0))
        return read, write


def read_bytes(path: str, limit: int) -> bytes:
    """Up to ``limit`` bytes of a cgroup or /proc file, read with os.read (a run reads a few dozen on
    its path); OSError if it cannot be read."""
    descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        chunks = []
        size = 0
        while size < limit:
            chunk = os.read(descriptor, min(65536, limit - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def _read(path: str) -> str | None:
    """A cgroup (or /proc) file's text, stripped; None if it cannot be read (its cgroup is gone)."""
    try:
        return read_bytes(path, _MAX_FILE_BYTES).decode("utf-8", "replace").strip()
    except OSError:
        return None


def _read_or_fail(path: str) -> str:
    text = _read(path)
    if text is None:
        raise OSError(f"cannot read {path}")
    return text


def _write(path: str, value: object) -> None:
    """One value into a cgroup file, in one write (the kernel takes it whole or refuses: OSError)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(descriptor, str(value).encode("ascii"))
    finally:
        os.close(descriptor)


def _keyed(text: str | None) -> dict[str, int]:
    values: dict[str, int] = {}
    for line in (text or "").splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].lstrip("-").isdigit():
            values[parts[0]] = int(parts[1])
    return values
