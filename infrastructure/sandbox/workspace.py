"""A run's working directory: the input files placed for the code, the output files collected from it.

Inputs are written into the run's host folder under ``files/`` (read-only to the container, at
``/sandbox/files``); the runner copies them into the working directory (``/workspace``, a bounded
tmpfs) as the code's uid before the code starts, so the code may read, change or remove them.

Outputs cross the trust boundary the other way and follow decision 0012: nothing is opened by a
host path. ``collect_outputs`` walks ``/workspace`` from the container's root descriptor
(files.py's ``ContainerRoot``) with ``openat``, ``O_NOFOLLOW | O_NONBLOCK``: a regular file on that
mount is read (``fstat`` of the opened descriptor decides, never the name), up to the bounds; a link
is listed with its text and never followed; a FIFO, socket or device is listed by kind and never
opened for reading. Count, per-file and total bytes and time are bounded (policy ``files:``), and
whatever is left out is said on the record, never silently. An input the code left unchanged
(same name, same SHA-256) is not an output.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mai_safety.domain.files import FileBounds, UnsafeFileName, check_file_name

from .files import _DIRECTORY, _FILE, ContainerRoot, _kind, _read_at_most

WORKSPACE = "/workspace"
INPUTS_FOLDER = "files"  # in the run's host folder: /sandbox/files inside
#: How many left-out entries the record names (it counts them all).
NAMED_LEFT_OUT = 50


def place_inputs(workdir: Path, files: Mapping[str, bytes]) -> None:
    """Write a run's input files (names already checked, domain.files) under its host folder's
    ``files/``, read-only: the container sees them at /sandbox/files, the runner copies them."""
    base = workdir / INPUTS_FOLDER
    base.mkdir(mode=0o755)
    for name, data in files.items():
        path = base / check_file_name(name)  # again here: this name becomes a host path
        path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
        with open(path, "xb") as handle:  # never through a link: the folder is this process's own
            handle.write(data)
        path.chmod(0o444)


class RunWorkspace:
    """One run's working directory as the sandbox sees it: the inputs it was given (name to
    SHA-256) and the bounds of what is collected from it."""

    def __init__(self, bounds: FileBounds, files: Mapping[str, bytes]) -> None:
        self.bounds = bounds
        self.inputs = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}


@dataclass
class Collected:
    """What was collected from one run's working directory, and what was left out."""

    files: list[tuple[str, bytes]] = field(default_factory=list)
    left_out: list[dict[str, Any]] = field(default_factory=list)
    left_out_count: int = 0
    total: int = 0
    incomplete: str = ""

    def leave_out(self, name: str, why: str, **more: Any) -> None:
        self.left_out_count += 1
        if len(self.left_out) < NAMED_LEFT_OUT:
            self.left_out.append({"name": name[:300], "why": why, **more})

    def record(self) -> dict[str, Any]:
        """The note on the ending's observations (the files themselves are its ``files_out``)."""
        note: dict[str, Any] = {"collected": len(self.files), "bytes": self.total, "through": "the container's root descriptor"}
        if self.left_out_count:
            note["left_out"] = self.left_out
            note["left_out_count"] = self.left_out_count
        if self.incomplete:
            note["incomplete"] = self.incomplete
        return note


def collect_outputs(root: ContainerRoot, inputs: Mapping[str, str], bounds: FileBounds, mount: str = WORKSPACE) -> Collected:
    """The regular files the code created or changed under ``mount`` (``inputs``: name to SHA-256
    of what it was given), within ``bounds``; links and special files listed, never followed."""
    collected = Collected()
    walk = _Walk(collected, inputs, bounds, time.monotonic() + bounds.collect_s)
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


@dataclass
class _Walk:
    collected: Collected
    inputs: Mapping[str, str]
    bounds: FileBounds
    stop_at: float

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
            check_file_name(path)
        except UnsafeFileName as exc:
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
        if self.inputs.get(path) == hashlib.sha256(data).hexdigest():
            return  # an input, as it was given: not an output
        collected.files.append((path, data))
        collected.total += len(data)


def _too_large(bounds: FileBounds, per_file: bool) -> str:
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


__all__ = ["Collected", "RunWorkspace", "INPUTS_FOLDER", "WORKSPACE", "collect_outputs", "place_inputs"]
