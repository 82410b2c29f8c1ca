"""Owner-only files for what mai-safety keeps on this host: the data folder (the SQLite ledger, its
WAL and SHM, the lock files, the recorded policy folders, an older install's signing key), the
state folder (the default witness) and the configuration folder (the signing key).

Each is made 0700 (folders) or 0600 (files) whatever the caller's umask; one found with looser
modes is tightened when it is opened; one that belongs to another user is refused in one line
(ConfigurationError), since the ledger then is not this user's to hold. Modes are read and changed
through a descriptor opened without following a link, so nothing outside the folder is changed.
"""

from __future__ import annotations

import errno
import os
import pwd
import stat
from pathlib import Path

from mai_safety.application.errors import ConfigurationError

FOLDER_MODE, FILE_MODE = 0o700, 0o600
#: What mai-safety keeps in its data folder: the SQLite ledger and everything beside it named after
#: it (WAL, SHM, work locks), the admission lock; and the folders of recorded policy versions and of
#: retention archives. Only these are tightened there: the folder is named by a setting, and what
#: else someone keeps in it is not ours to change. A signing key others could read is never
#: tightened but refused (infrastructure/signing.py): it may have been copied, and its owner decides.
DATA_FILES = ("ledger.sqlite", "admission.lock")
DATA_FOLDERS = ("policies", "archive")


def private_data_folder(folder: Path) -> None:
    """The data folder 0700 and what mai-safety keeps there owner-only (DATA_FILES, DATA_FOLDERS)."""
    private_folder(folder, "the data folder")
    for entry in os.scandir(folder):
        if entry.name.startswith(DATA_FILES) and entry.is_file(follow_symlinks=False):
            _tighten(Path(entry.path), "the ledger" if entry.name == DATA_FILES[0] else "the data folder's file", follow=False)
        elif entry.name in DATA_FOLDERS and entry.is_dir(follow_symlinks=False):
            private_tree(Path(entry.path), "the data folder's folder")


def make_folders(folder: Path) -> None:
    """``folder`` and each missing folder above it made 0700, whatever the umask (as the XDG base
    directory specification asks of the folders it names); OSError when one cannot be made."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        if folder.parent == folder:
            break
        folder = folder.parent
    for path in reversed(missing):
        try:
            os.mkdir(path, FOLDER_MODE)
        except FileExistsError:
            continue  # another process made it first: tightened by whoever opens it
        os.chmod(path, FOLDER_MODE)


def private_tree(folder: Path, what: str) -> None:
    """Make ``folder`` (missing parents as the umask says) 0700, and tighten every folder and
    regular file under it to its owner; links and special files are left as they are."""
    private_folder(folder, what)
    for root, folders, files in os.walk(folder):
        for name in (*folders, *files):
            path = Path(root) / name
            try:
                kind = os.lstat(path).st_mode
            except FileNotFoundError:
                continue
            if stat.S_ISDIR(kind) or stat.S_ISREG(kind):
                _tighten(path, what, follow=False)


def private_folder(folder: Path, what: str) -> None:
    """``folder`` made if missing (each missing folder above it 0700), owned by this user and 0700
    (the link that names it, if any, is the owner's own choice and followed)."""
    try:
        make_folders(folder)
    except OSError as exc:
        raise ConfigurationError(f"cannot create {what} {folder}: {exc.strerror}") from None
    _tighten(folder, what, follow=True)


def private_file(path: Path, what: str) -> None:
    """``path`` made empty if missing, owned by this user and 0600 (nothing else can read it
    between its creation and its first write); an existing one is tightened, never truncated."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW, FILE_MODE)
    except FileExistsError:
        _tighten(path, what, follow=True)
        return
    except OSError as exc:
        raise ConfigurationError(f"cannot create {what} {path}: {exc.strerror}") from None
    try:
        os.fchmod(descriptor, FILE_MODE)  # whatever the umask took away from the owner
    finally:
        os.close(descriptor)


def write_private(path: Path, text: str) -> None:
    """``text`` written to ``path``, created (or truncated) owner-only; missing folders made 0700."""
    make_folders(path.parent)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC | os.O_NOFOLLOW, FILE_MODE)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)


def tighten_if_present(path: Path, what: str) -> None:
    """An existing file or folder tightened to its owner; nothing when it is absent."""
    _tighten(path, what, follow=False)


def _tighten(path: Path, what: str, *, follow: bool) -> None:
    flags = os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK | (0 if follow else os.O_NOFOLLOW)
    try:
        descriptor = os.open(path, flags)
    except FileNotFoundError:
        return
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return  # a link inside the folder: not ours to follow
        raise ConfigurationError(f"cannot open {what} {path} to make it private: {exc.strerror}") from None
    try:
        found = os.fstat(descriptor)
        if found.st_uid != os.geteuid():
            raise ConfigurationError(
                f"{what} {path} belongs to {_user(found.st_uid)}, not to this user ({_user(os.geteuid())}): "
                "run mai-safety as its owner, or choose another folder (MAI_SAFETY_DATA_DIR, MAI_SAFETY_DATABASE_URL)"
            )
        mode = stat.S_IMODE(found.st_mode)
        wanted = (mode & FOLDER_MODE) | (FOLDER_MODE if stat.S_ISDIR(found.st_mode) else FILE_MODE)
        if mode != wanted:
            try:
                os.fchmod(descriptor, wanted)
            except OSError as exc:
                raise ConfigurationError(
                    f"{what} {path} is mode {mode:04o} and cannot be made owner-only ({exc.strerror}): `chmod {wanted:o} {path}`"
                ) from None
    finally:
        os.close(descriptor)


def _user(uid: int) -> str:
    try:
        return f"uid {uid} ({pwd.getpwuid(uid).pw_name})"
    except KeyError:
        return f"uid {uid}"
