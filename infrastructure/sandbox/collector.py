"""The collection of a run's output files from its working directory, by descriptors only
(decision 0012; workspace.py says why and how). Standard library only, and nothing of the service
imported by name: under gVisor the working directory lives in gVisor's kernel, so this module is
also mounted beside payload/survey.py (as container_collector.py, with files.py as
container_files.py) and run inside, by exec as the code's uid, after the code's processes ended.

``Collector(inputs, limits, check_name).run(root, mount)``: ``limits`` holds ``max_outputs``,
``max_output_bytes``, ``max_outputs_total`` and ``collect_s``; ``check_name`` returns a name
normalised or raises ValueError.
"""

from __future__ import annotations

import os
import stat
import time
from types import SimpleNamespace

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers read the name alone)

if TYPE_CHECKING:  # light to import, as files.py says why; hashlib is loaded when a file is compared
    from collections.abc import Callable, Mapping
    from typing import Any

try:
    from .files import _DIRECTORY, _FILE, ContainerRoot, _kind, _read_at_most
except ImportError:  # inside the sandbox: mounted beside payload/survey.py
    from container_files import _DIRECTORY, _FILE, ContainerRoot, _kind, _read_at_most  # type: ignore[no-redef]

#: How many left-out entries the record names (it counts them all).
NAMED_LEFT_OUT = 50


class Collector:
    def __init__(self, inputs: Mapping[str, str], limits: Mapping[str, float], check_name: Callable[[str], str]) -> None:
        self.inputs = inputs
        self.bounds = SimpleNamespace(**{key: limits[key] for key in ("max_outputs", "max_output_bytes", "max_outputs_total", "collect_s")})
        self.check_name = check_name

    def run(self, root: ContainerRoot, mount: str) -> Collected:
        collected = Collected()
        walk = _Walk(collected, self.inputs, self.bounds, time.monotonic() + self.bounds.collect_s, self.check_name)
        try:
            top = root.open_directory(mount)
        except OSError as exc:
            collected.incomplete = f"the working directory could not be opened ({exc.strerror or exc})"
            return collected
        try:
            walk.folder(top, os.fstat(top).st_dev, "", 0)
        finally:
            os.close(top)
        return collected


class Collected:
    """What was collected from one run's working directory, and what was left out."""

    def __init__(self, through: str = "the container's root descriptor") -> None:
        self.files: list[tuple[str, bytes]] = []
        self.left_out: list[dict[str, Any]] = []
        self.left_out_count = 0
        self.total = 0
        self.incomplete = ""
        self.through = through

    def leave_out(self, name: str, why: str, **more: Any) -> None:
        self.left_out_count += 1
        if len(self.left_out) < NAMED_LEFT_OUT:
            self.left_out.append({"name": name[:300], "why": why, **more})

    def record(self) -> dict[str, Any]:
        """The note on the ending's observations (the files themselves are its ``files_out``)."""
        note: dict[str, Any] = {"collected": len(self.files), "bytes": self.total, "through": self.through}
        if self.left_out_count:
            note["left_out"] = self.left_out
            note["left_out_count"] = self.left_out_count
        if self.incomplete:
            note["incomplete"] = self.incomplete
        return note


class _Walk:
    def __init__(
        self, collected: Collected, inputs: Mapping[str, str], bounds: Any, stop_at: float, check_name: Callable[[str], str]
    ) -> None:
        self.collected = collected
        self.inputs = inputs
        self.bounds = bounds
        self.stop_at = stop_at
        self.check_name = check_name

    def folder(self, folder: int, device: int, prefix: str, depth: int) -> None:
        collected, bounds = self.collected, self.bounds
        try:
            names = sorted(entry.name for entry in os.scandir(folder))
        except OSError:
            return
        for name in names:
            path = f"{prefix}{name}"
            if time.monotonic() > self.stop_at:
                collected.incomplete = f"collecting stopped after {bounds.collect_s:g} s: what was not reached is not listed"
                return
            try:
                status = os.stat(name, dir_fd=folder, follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(status.st_mode):
                if status.st_dev != device or depth >= 32:
                    collected.leave_out(path + "/", "another mount, or nested too deep")
                    continue
                try:
                    child = os.open(name, _DIRECTORY, dir_fd=folder)
                except OSError:
                    collected.leave_out(path + "/", "the folder could not be opened without following a link")
                    continue
                try:
                    self.folder(child, device, path + "/", depth + 1)
                finally:
                    os.close(child)
                if collected.incomplete:
                    return
                continue
            self.entry(folder, device, name, path, status)

    def entry(self, folder: int, device: int, name: str, path: str, status: os.stat_result) -> None:
        collected, bounds = self.collected, self.bounds
        if not stat.S_ISREG(status.st_mode):
            more: dict[str, Any] = {"kind": _kind(status.st_mode)}
            if stat.S_ISLNK(status.st_mode):
                try:
                    more["target"] = os.readlink(name, dir_fd=folder)[:200]
                except OSError:
                    pass
            collected.leave_out(path, "not a regular file: listed, never followed or read", **more)
            return
        try:
            self.check_name(path)
        except ValueError as exc:
            collected.leave_out(repr(path), f"its name is refused: {exc}")
            return
        if len(collected.files) >= bounds.max_outputs:
            collected.leave_out(path, f"over the policy's {bounds.max_outputs} output files", bytes=status.st_size)
            return
        room = min(bounds.max_output_bytes, bounds.max_outputs_total - collected.total)
        if status.st_size > room:
            collected.leave_out(path, _too_large(bounds, status.st_size > bounds.max_output_bytes), bytes=status.st_size)
            return
        data, why = _read_regular(folder, name, device, room)
        if data is None:
            collected.leave_out(path, why, bytes=status.st_size)
            return
        import hashlib

        if self.inputs.get(path) == hashlib.sha256(data).hexdigest():
            return  # an input, as it was given: not an output
        collected.files.append((path, data))
        collected.total += len(data)


def _too_large(bounds: Any, per_file: bool) -> str:
    if per_file:
        return f"over the policy's {bounds.max_output_bytes} bytes per output file"
    return f"over the policy's {bounds.max_outputs_total} bytes of output files in all"


def _read_regular(folder: int, name: str, device: int, cap: int) -> tuple[bytes | None, str]:
    """The bytes of a regular file of this mount, at most ``cap``; None and why for anything else
    (swapped for a link or a FIFO since it was listed, grown past the cap while it was read)."""
    try:
        handle = os.open(name, _FILE, dir_fd=folder)
    except OSError:
        return None, "it changed into a link or vanished while it was collected: not followed"
    try:
        status = os.fstat(handle)
        if not stat.S_ISREG(status.st_mode) or status.st_dev != device:
            return None, "it is no longer a regular file of the working directory"
        data = _read_at_most(handle, cap + 1)
    except OSError as exc:
        return None, f"it could not be read ({exc.strerror or exc})"
    finally:
        os.close(handle)
    if len(data) > cap:
        return None, f"it grew past {cap} bytes while it was collected"
    return data, ""



__all__ = ["Collected", "Collector", "NAMED_LEFT_OUT"]
