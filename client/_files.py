"""Files for the clients, with no I/O beyond the caller's own paths: the ``files`` of a submission
(name to bytes, or to a path read here), each as the service takes it (base64); and the check a
downloaded file's name meets before it becomes a path on the caller's machine (the code chose it)."""

from __future__ import annotations

import base64
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

#: What a submission's ``files`` may be: name to bytes or to a path, or (name, bytes) pairs.
FilesArg = Mapping[str, "bytes | str | os.PathLike[str]"] | Iterable[tuple[str, bytes]] | None


def encoded_files(files: FilesArg) -> list[dict[str, str]] | None:
    if not files:
        return None
    pairs = files.items() if isinstance(files, Mapping) else files
    encoded = []
    for name, content in pairs:
        data = content if isinstance(content, bytes) else Path(content).read_bytes()
        encoded.append({"name": name, "content_base64": base64.b64encode(data).decode("ascii")})
    return encoded


def local_name(name: str) -> str:
    """A file name the service sent, as a relative path safe to join to a folder: ValueError for
    an absolute name, ``..``, a backslash or a control character (the code that ran chose it)."""
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if (
        not parts
        or name.startswith("/")
        or "\\" in name
        or ".." in parts
        or any(ord(character) < 32 or ord(character) == 127 for character in name)
    ):
        raise ValueError(f"refusing the file name {name!r}: not a plain relative path")
    return "/".join(parts)


def write_download(path: str | os.PathLike[str], data: bytes, *, overwrite: bool) -> Path:
    """Write ``data`` to ``path`` (a folder: under the name's last part there); an existing file is
    kept (FileExistsError) unless ``overwrite``, and a link in its place is never followed."""
    target = Path(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC | (os.O_TRUNC if overwrite else os.O_EXCL)
    descriptor = os.open(target, flags, 0o644)
    with os.fdopen(descriptor, "wb") as out:
        out.write(data)
    return target


#: What a policy may be given as: name (``gate.yaml``, ``semgrep/NAME.yaml``) to text, or a folder.
PolicyArg = Mapping[str, str] | str | os.PathLike[str]
#: A folder's policy files, as the service's loader reads a folder: NAME.yaml, semgrep/NAME.yaml.
_POLICY_GLOBS = ("*.yaml", "semgrep/*.yaml")
_POLICY_MAX_BYTES = 1024 * 1024


def policy_files(policy: PolicyArg) -> dict[str, str]:
    """The files of a policy as ``POST /v1/policies`` takes them: a mapping as it is, or a folder's
    ``NAME.yaml`` and ``semgrep/NAME.yaml`` (the service checks names, sizes and contents)."""
    if isinstance(policy, Mapping):
        return dict(policy)
    folder = Path(policy)
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a policy folder")
    files, total = {}, 0
    for pattern in _POLICY_GLOBS:
        for path in sorted(folder.glob(pattern)):
            if path.is_file() and not path.is_symlink():
                data = path.read_bytes()
                total += len(data)
                if total > _POLICY_MAX_BYTES:
                    raise ValueError(f"the policy folder {folder} holds more than {_POLICY_MAX_BYTES} bytes of YAML")
                files[path.relative_to(folder).as_posix()] = data.decode("utf-8")
    if not files:
        raise ValueError(f"{folder} holds no policy file (NAME.yaml, semgrep/NAME.yaml)")
    return files
