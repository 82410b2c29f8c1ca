"""Reading what a run left in its container, from the host, without trusting a single path in it.

This is a trust boundary: the supervisor runs as root on the host, and everything below the
container's writable mounts was made by the code. A path such as
``/proc/PID/root/workspace/x`` would be resolved by the host kernel, and a symlink planted by the
code (``x -> /etc/shadow``) would be followed *against the host's root*; a FIFO would block the
reader, ``/dev/zero`` would never end. So:

* the container's root is held as a descriptor from the moment the container starts
  (``ContainerRoot``), so a recycled pid can never turn it into the host's root;
* every step below it is an ``openat`` relative to a directory descriptor, with ``O_NOFOLLOW`` and
  ``O_NONBLOCK``; a symlink is reported as a link (its text), never followed;
* a file is read only if ``fstat`` of the opened descriptor says it is a regular file on the same
  mount as the directory surveyed, and never more than a cap; walking stops at a cap of entries and
  a deadline.
"""

from __future__ import annotations

import os
import stat
import time

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers read the name alone)

if TYPE_CHECKING:
    from typing import Any

# Light to import, on purpose: under gVisor this module is imported by the survey inside the
# sandbox after every run (as container_files.py), where each module loaded costs milliseconds
# (dataclasses, typing and hashlib were ~60 of its ~80 ms there). hashlib is loaded when a file is
# hashed.

_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
_CHUNK = 64 * 1024


class ContainerRoot:
    """The container's root directory, held open from the start of the run."""

    def __init__(self, pid: int) -> None:
        self.descriptor = os.open(f"/proc/{pid}/root", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)

    def open_directory(self, path: str) -> int:
        """A directory below the root, each component opened without following links."""
        current = os.dup(self.descriptor)
        try:
            for part in [piece for piece in path.split("/") if piece]:
                if part == "..":
                    raise OSError(f"'..' in {path!r}")
                following = os.open(part, _DIRECTORY, dir_fd=current)
                os.close(current)
                current = following
        except BaseException:
            os.close(current)
            raise
        return current

    def read_file(self, directory: str, name: str, cap: int) -> bytes:
        """A regular file's bytes, at most ``cap``; OSError for anything else (a link, a FIFO, a
        device, too large)."""
        folder = self.open_directory(directory)
        try:
            handle = os.open(name, _FILE, dir_fd=folder)
        finally:
            os.close(folder)
        try:
            status = os.fstat(handle)
            if not stat.S_ISREG(status.st_mode):
                raise OSError(f"{directory}/{name} is not a regular file")
            if status.st_size > cap:
                raise OSError(f"{directory}/{name} is {status.st_size} bytes, over {cap}")
            data = _read_at_most(handle, cap + 1)
        finally:
            os.close(handle)
        if len(data) > cap:
            raise OSError(f"{directory}/{name} grew past {cap} bytes")
        return data

    def disk_use(self, mount: str) -> tuple[int, int]:
        """(bytes used, bytes in all) of a mount, from a descriptor rather than a path."""
        folder = self.open_directory(mount)
        try:
            info = os.statvfs(folder)
        finally:
            os.close(folder)
        return (info.f_blocks - info.f_bfree) * info.f_frsize, info.f_blocks * info.f_frsize

    def close(self) -> None:
        if self.descriptor >= 0:
            os.close(self.descriptor)
            self.descriptor = -1


class Survey:
    """What a run left in its writable mounts: counted, the first few named and hashed."""

    def __init__(
        self,
        list_first: int = 50,
        hash_up_to: int = 1024 * 1024,
        max_entries: int = 10_000,
        read_budget: int = 32 * 1024 * 1024,
        deadline_s: float = 5.0,
    ) -> None:
        self.list_first = list_first
        self.hash_up_to = hash_up_to
        self.max_entries = max_entries
        self.read_budget = read_budget
        self.deadline_s = deadline_s
        self.count = 0
        self.total = 0
        self.first: list[dict[str, Any]] = []
        self.refused = 0
        self.incomplete = ""

    def run(self, root: ContainerRoot, mounts: tuple[str, ...]) -> dict[str, Any]:
        self._stop_at = time.monotonic() + self.deadline_s
        for mount in mounts:
            try:
                top = root.open_directory(mount)
            except OSError:
                continue
            try:
                self._walk(top, os.fstat(top).st_dev, mount.rstrip("/"), 0)
            finally:
                os.close(top)
        record: dict[str, Any] = {"count": self.count, "bytes": self.total, "first": self.first}
        if self.refused:
            record["not_regular"] = self.refused
        if self.incomplete:
            record["incomplete"] = self.incomplete
        return record

    def _walk(self, folder: int, device: int, prefix: str, depth: int) -> None:
        try:
            names = sorted(entry.name for entry in os.scandir(folder))
        except OSError:
            return
        for name in names:
            if self.count >= self.max_entries or time.monotonic() > self._stop_at:
                self.incomplete = f"stopped after {self.count} entries or {self.deadline_s:g} s"
                return
            path = f"{prefix}/{name}"
            try:
                status = os.stat(name, dir_fd=folder, follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(status.st_mode):
                if status.st_dev != device or depth >= 32:
                    continue  # another mount, or absurdly deep: not this survey's to follow
                try:
                    child = os.open(name, _DIRECTORY, dir_fd=folder)
                except OSError:
                    continue
                try:
                    self._walk(child, device, path, depth + 1)
                finally:
                    os.close(child)
                continue
            self.count += 1
            entry: dict[str, Any] = {"path": path, "bytes": status.st_size}
            if stat.S_ISREG(status.st_mode):
                self.total += status.st_size
                if len(self.first) < self.list_first and status.st_size <= self.hash_up_to:
                    digest = self._hash(folder, name, device)
                    if digest:
                        entry["sha256"] = digest
            else:
                self.refused += 1
                entry["kind"] = _kind(status.st_mode)
                if stat.S_ISLNK(status.st_mode):
                    try:
                        entry["target"] = os.readlink(name, dir_fd=folder)[:200]
                    except OSError:
                        pass
            if len(self.first) < self.list_first:
                self.first.append(entry)

    def _hash(self, folder: int, name: str, device: int) -> str | None:
        if self.read_budget <= 0:
            return None
        try:
            handle = os.open(name, _FILE, dir_fd=folder)
        except OSError:
            return None  # swapped for a link since the stat: not followed
        try:
            status = os.fstat(handle)
            if not stat.S_ISREG(status.st_mode) or status.st_dev != device:
                return None
            data = _read_at_most(handle, self.hash_up_to + 1)
        except OSError:
            return None
        finally:
            os.close(handle)
        self.read_budget -= len(data)
        if len(data) > self.hash_up_to:
            return None
        import hashlib

        return hashlib.sha256(data).hexdigest()


def _read_at_most(descriptor: int, limit: int) -> bytes:
    data = bytearray()
    while len(data) < limit:
        try:
            chunk = os.read(descriptor, min(_CHUNK, limit - len(data)))
        except BlockingIOError:
            break
        if not chunk:
            break
        data += chunk
    return bytes(data)


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISLNK, "symlink"),
        (stat.S_ISFIFO, "fifo"),
        (stat.S_ISSOCK, "socket"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISBLK, "block device"),
    ):
        if test(mode):
            return name
    return "special"
