"""Reading the files a person names on the command line: FILE or standard input for `run` and
`assess`, and the bundle, checkpoint, public key and password files of the `audit` commands.

This is a trust boundary. The CLI may run as root, and these paths are named by whoever calls
it, so a path is never simply opened: a symlink to ``/etc/shadow``, a device such as
``/dev/zero`` or ``/dev/watchdog``, a FIFO that never answers, or a file of a gigabyte would
otherwise be read (and recorded in the ledger as "the code"), hang, or exhaust memory.

``open_regular_file``:
  1. opens the path with ``O_PATH`` (this resolves it but opens nothing: no device driver sees an
     open, no FIFO blocks);
  2. refuses anything that is not a regular file, and anything over a size limit, from ``fstat`` of
     that very descriptor;
  3. only then reopens the same inode for reading.
Because every check is made on the descriptor that is then read, swapping the path between the
checks and the read changes nothing. ``read_program_file`` also asks the kernel what the path
resolved to and refuses a target outside the directory the user named, unless the user says they
mean it, and reads at most the limit plus one byte.

``read_program_stdin`` reads at most the limit plus one byte and gives up after a deadline, so an
endless or silent stream cannot hold the CLI.
"""

from __future__ import annotations

import os
import select
import stat
import time
from pathlib import Path
from typing import BinaryIO

from mai_safety.domain.errors import InvalidSubmission

STDIN_DEADLINE_S = 60.0
_CHUNK = 64 * 1024


class UnreadableInput(Exception):
    """A named file that is refused before (or while) it is read; the message says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def open_regular_file(name: str, max_bytes: int | None = None, *, within: str | None = None) -> BinaryIO:
    """A binary reader of the regular file ``name`` resolves to, checked as the module says;
    ``within``: a directory the resolved file must lie in (else refused)."""
    handle = _open_path(name)
    try:
        if within is not None:
            _check_inside(name, handle, os.path.realpath(within), "")
        return _reopen_checked(name, handle, max_bytes)
    finally:
        os.close(handle)


def read_regular_file(name: str, max_bytes: int, *, within: str | None = None) -> bytes:
    """The bytes of a regular file, refused over ``max_bytes`` (from its size, and while reading)."""
    with open_regular_file(name, max_bytes, within=within) as reader:
        data = reader.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise UnreadableInput(f"{name} grew over the limit of {max_bytes} bytes while it was read")
    return data


def read_program_file(name: str, max_bytes: int, *, base: str | None = None, follow_symlinks: bool = False) -> bytes:
    """The bytes of FILE, or InvalidSubmission saying why not.

    ``base`` is the directory the user named (for a file found inside a DIR argument); by default
    it is the directory of ``name`` as given.
    """
    directory = os.path.realpath(base if base is not None else (os.path.dirname(name) or "."))
    try:
        handle = _open_path(name)
        try:
            if not follow_symlinks:
                _check_inside(name, handle, directory, " (pass --follow-symlinks if you mean to run that file)")
            with _reopen_checked(name, handle, max_bytes) as reader:
                data = reader.read(max_bytes + 1)
        finally:
            os.close(handle)
    except UnreadableInput as exc:
        raise InvalidSubmission(exc.message) from None
    if len(data) > max_bytes:
        raise InvalidSubmission(f"{name} grew over the limit of {max_bytes} bytes while it was read")
    return data


def _open_path(name: str) -> int:
    try:
        return os.open(name, os.O_PATH | os.O_CLOEXEC)
    except FileNotFoundError:
        raise UnreadableInput(f"{name} does not exist: check the path") from None
    except PermissionError:
        raise UnreadableInput(f"{name} cannot be read (permission denied)") from None
    except OSError as exc:
        raise UnreadableInput(f"{name} cannot be read ({exc.strerror})") from None


def _reopen_checked(name: str, handle: int, max_bytes: int | None) -> BinaryIO:
    try:
        status = os.fstat(handle)
        kind = _kind(status.st_mode)
        if kind != "regular file":
            raise UnreadableInput(f"{name} is a {kind}, not a regular file")
        if max_bytes is not None and status.st_size > max_bytes:
            raise UnreadableInput(f"{name} is {status.st_size} bytes, over the limit of {max_bytes} bytes")
        reader = os.open(f"/proc/self/fd/{handle}", os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except PermissionError:
        raise UnreadableInput(f"{name} cannot be read (permission denied)") from None
    except OSError as exc:
        raise UnreadableInput(f"{name} cannot be read ({exc.strerror})") from None
    if os.fstat(reader).st_ino != status.st_ino:
        os.close(reader)
        raise UnreadableInput(f"{name} changed while it was being read: try again")
    return os.fdopen(reader, "rb")


def read_program_stdin(stream: BinaryIO, max_bytes: int, deadline_s: float = STDIN_DEADLINE_S) -> bytes:
    """Standard input up to end of file, at most ``max_bytes``, within ``deadline_s`` seconds."""
    descriptor = stream.fileno()
    kind = _kind(os.fstat(descriptor).st_mode)
    if kind == "directory":
        raise InvalidSubmission("standard input is a directory: pipe one Python file into -")
    stop_at = time.monotonic() + deadline_s
    data = bytearray()
    while True:
        remaining = stop_at - time.monotonic()
        if remaining <= 0:
            raise InvalidSubmission(
                f"standard input did not end within {deadline_s:g} s: pipe a finished file into -"
            )
        if kind != "regular file":
            ready, _, _ = select.select([descriptor], [], [], min(remaining, 1.0))
            if not ready:
                continue
        chunk = os.read(descriptor, min(_CHUNK, max_bytes + 1 - len(data)))
        if not chunk:
            return bytes(data)
        data += chunk
        if len(data) > max_bytes:
            raise InvalidSubmission(f"standard input is over the limit of {max_bytes} bytes: stopped reading there")


def _check_inside(name: str, handle: int, directory: str, hint: str) -> None:
    """Refuse ``name`` unless what the kernel resolved it to (``handle``) lies in ``directory``."""
    target = os.readlink(f"/proc/self/fd/{handle}")
    if not _inside(target, directory):
        raise UnreadableInput(f"{name} leads to {target}, outside {directory}: refused{hint}")


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def _kind(mode: int) -> str:
    if stat.S_ISREG(mode):
        return "regular file"
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISFIFO(mode):
        return "FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    return "special file"


def python_files_in(directory: str) -> list[str]:
    """The *.py files under a directory the user named, without descending through symlinked folders."""
    found: list[str] = []
    for folder, subfolders, names in os.walk(directory, followlinks=False):
        subfolders.sort()
        found.extend(str(Path(folder) / name) for name in sorted(names) if name.endswith(".py"))
    return found


#: The most one --file may hold when no policy says less (the thin client: the service checks its own).
MAX_RUN_FILE_BYTES = 64 * 1024 * 1024


def read_run_files(specs: list[str], max_bytes: int, *, follow_symlinks: bool = False) -> list[tuple[str, bytes]]:
    """The files ``run --file PATH[:NAME]`` names, each read through the same checks as FILE (a
    regular file, no link out of its folder unless ``follow_symlinks``, no device or FIFO, bounded
    before and while reading), placed under NAME or, without one, under PATH's base name. A PATH
    holding a colon is taken whole when it exists as given. The names are checked by the domain."""
    files = []
    for spec in specs:
        path, name = spec, ""
        if not os.path.lexists(spec) and ":" in spec:
            path, _, name = spec.rpartition(":")
        if not path:
            raise InvalidSubmission(f"--file {spec!r} names no file: write --file PATH or --file PATH:NAME")
        data = read_program_file(path, max_bytes, follow_symlinks=follow_symlinks)
        files.append((name or os.path.basename(os.path.normpath(path)), data))
    return files
