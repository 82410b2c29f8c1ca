"""Writing the files a run left into the directory a person named (``run --output-dir DIR``).

This is a trust boundary: the names were chosen by the code that ran. Each is checked again
(domain.files: relative, normalised, no ``..``, no control character), and written below DIR
through directory descriptors opened with ``O_NOFOLLOW``, so neither a name nor a link already in
DIR can lead outside it. An existing file is never overwritten unless ``force``; even then a link
in its place is refused, not followed. Nothing is written when one of the files cannot be.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence

from mai_safety.domain.errors import InvalidSubmission
from mai_safety.domain.files import UnsafeFileName, check_file_name

_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class OutputNotWritten(InvalidSubmission):
    """An output file could not be written where it was asked to go."""


def check_output_dir(directory: str) -> None:
    """Before a run: DIR is a directory (made if absent), so a typo is found before the code runs."""
    try:
        os.makedirs(directory, exist_ok=True)
        os.close(os.open(directory, _DIRECTORY & ~os.O_NOFOLLOW))
    except OSError as exc:
        raise OutputNotWritten(f"--output-dir {directory} cannot be used ({exc.strerror or exc})") from None


def write_outputs(directory: str, files: Sequence[tuple[str, bytes]], *, force: bool = False) -> list[str]:
    """Write each (name, bytes) below ``directory``; returns the paths written. Refuses, writing
    nothing, a name that is not a plain relative path and (without ``force``) a file already there."""
    checked = []
    for name, data in files:
        try:
            checked.append((check_file_name(name), data))
        except UnsafeFileName as exc:
            raise OutputNotWritten(f"an output file's name is refused, nothing was written: {exc}") from None
    if not force:
        for name, _ in checked:
            if os.path.lexists(os.path.join(directory, name)):
                raise OutputNotWritten(
                    f"{os.path.join(directory, name)} exists: nothing was written (pass --force to overwrite, or choose another --output-dir)"
                )
    written = []
    top = os.open(directory, _DIRECTORY & ~os.O_NOFOLLOW)  # DIR itself is the person's to choose
    try:
        for name, data in checked:
            written.append(_write_below(top, directory, name, data, force))
    finally:
        os.close(top)
    return written


def _write_below(top: int, directory: str, name: str, data: bytes, force: bool) -> str:
    *folders, base = name.split("/")
    current = os.dup(top)
    try:
        for folder in folders:
            try:
                os.mkdir(folder, 0o755, dir_fd=current)
            except FileExistsError:
                pass
            following = os.open(folder, _DIRECTORY, dir_fd=current)  # a link in its place: ELOOP, refused
            os.close(current)
            current = following
        flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | (os.O_TRUNC if force else os.O_EXCL)
        handle = os.open(base, flags, 0o644, dir_fd=current)
        try:
            if not stat.S_ISREG(os.fstat(handle).st_mode):
                raise OSError(0, "not a regular file")
            view = memoryview(data)
            while view:
                view = view[os.write(handle, view):]
        finally:
            os.close(handle)
    except OSError as exc:
        raise OutputNotWritten(f"{os.path.join(directory, name)} cannot be written ({exc.strerror or exc}): it was not followed") from None
    finally:
        os.close(current)
    return os.path.join(directory, name)


__all__ = ["OutputNotWritten", "check_output_dir", "write_outputs"]
