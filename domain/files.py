"""Files a run is given and files it leaves: their names, their bounds, and how they are recorded.

A run's files live in its working directory. An input file is named by the caller; an output file
by the code; both names end up as paths under a directory someone trusts (the container's
``/workspace``, the CLI's ``--output-dir``), so every name goes through ``check_file_name``: relative,
normalised, no ``..``, no absolute path, no control character or NUL, bounded in length. The bounds
of count, per-file and total bytes come from policy (``files:`` in policies/limits.yaml).

Each file is recorded as a ``FileRecord`` (name, size, SHA-256, and for an output its media type):
on ``Assessed`` for the inputs, on the ending event for the outputs. The bytes are blobs beside the
event (docs/decisions/0014), named by the SHA-256 that the signed chain covers. Pure, no I/O.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .errors import InvalidSubmission, SubmissionTooLarge
from .payloads import FileRecord

#: The longest name, and the longest part of one (most file systems' own bound).
MAX_NAME_BYTES = 1024
MAX_PART_BYTES = 255


@dataclass(frozen=True)
class FileBounds:
    """How many files a run may be given or may leave, and how large (policy: ``files:``).
    ``collect_s`` bounds the time spent collecting a run's outputs."""

    max_inputs: int = 100
    max_input_bytes: int = 10 * 1024 * 1024
    max_inputs_total: int = 20 * 1024 * 1024
    max_outputs: int = 100
    max_output_bytes: int = 10 * 1024 * 1024
    max_outputs_total: int = 20 * 1024 * 1024
    collect_s: float = 5.0


class InvalidInputFile(InvalidSubmission):
    """An input file cannot be accepted; ``field`` is where the request named it (``files[3].name``)."""

    def __init__(self, message: str, *, field: str) -> None:
        super().__init__(message)
        self.field = field


class InputFilesTooLarge(SubmissionTooLarge):
    """Input files over the policy's count or bytes; ``field`` as for InvalidInputFile."""

    def __init__(self, message: str, *, field: str, size: int, max_bytes: int) -> None:
        super().__init__(message, size=size, max_bytes=max_bytes)
        self.field = field


class UnsafeFileName(ValueError):
    """A name that is not a plain relative path."""


def check_file_name(name: str) -> str:
    """The name, normalised (``./a//b`` is ``a/b``); UnsafeFileName for anything that could leave the
    directory it is placed in or be misread on the way: empty, absolute, ``..``, a backslash, a
    control character or NUL, not NFC-normal Unicode, too long."""
    if not isinstance(name, str) or not name:
        raise UnsafeFileName("the name is empty")
    if any(ord(character) < 32 or ord(character) == 127 or 0x80 <= ord(character) < 0xA0 for character in name):
        raise UnsafeFileName(f"{name!r} holds a control character or NUL")
    if "\\" in name:
        raise UnsafeFileName(f"{name!r} holds a backslash: use '/' between folders")
    if name.startswith("/"):
        raise UnsafeFileName(f"{name!r} is an absolute path: name it relative to the working directory")
    if unicodedata.normalize("NFC", name) != name:
        raise UnsafeFileName(f"{name!r} is not in Unicode's normal form (NFC)")
    try:
        encoded = name.encode("utf-8")
    except UnicodeEncodeError:
        raise UnsafeFileName(f"{name!r} is not valid Unicode") from None
    if len(encoded) > MAX_NAME_BYTES:
        raise UnsafeFileName(f"the name is {len(encoded)} bytes, over {MAX_NAME_BYTES}")
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if not parts:
        raise UnsafeFileName(f"{name!r} names the working directory itself, not a file")
    for part in parts:
        if part == "..":
            raise UnsafeFileName(f"{name!r} climbs out of the working directory ('..')")
        if len(part.encode("utf-8")) > MAX_PART_BYTES:
            raise UnsafeFileName(f"a part of {name!r} is over {MAX_PART_BYTES} bytes")
    return "/".join(parts)


@dataclass(frozen=True)
class InputFile:
    """One file a run is given, checked: its normalised name and its bytes."""

    name: str
    data: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @property
    def is_python(self) -> bool:
        return self.name.endswith(".py")

    def record(self) -> FileRecord:
        return {"name": self.name, "bytes": len(self.data), "sha256": self.sha256}


def input_files(files: Mapping[str, bytes] | Iterable[tuple[str, bytes]], bounds: FileBounds) -> tuple[InputFile, ...]:
    """The files a run is given, each name checked and normalised, within the bounds; raises
    InvalidInputFile or InputFilesTooLarge naming the file (``files[i]``) or ``files`` itself."""
    pairs = list(files.items() if isinstance(files, Mapping) else files)
    if len(pairs) > bounds.max_inputs:
        raise InputFilesTooLarge(
            f"{len(pairs)} input files, over the policy's {bounds.max_inputs}: pack them into an archive or send fewer",
            field="files", size=len(pairs), max_bytes=bounds.max_inputs,
        )
    checked: list[InputFile] = []
    taken: dict[str, int] = {}
    total = 0
    for index, (name, data) in enumerate(pairs):
        where = f"files[{index}]"
        try:
            normal = check_file_name(name)
        except UnsafeFileName as exc:
            raise InvalidInputFile(f"input file {index}'s name is refused: {exc}", field=f"{where}.name") from None
        if normal in taken or any(other.startswith(normal + "/") or normal.startswith(other + "/") for other in taken):
            raise InvalidInputFile(f"input file {index} ({normal!r}) clashes with another input's name", field=f"{where}.name")
        if len(data) > bounds.max_input_bytes:
            raise InputFilesTooLarge(
                f"input file {normal!r} is {len(data)} bytes, over the policy's {bounds.max_input_bytes} per file",
                field=f"{where}.content_base64", size=len(data), max_bytes=bounds.max_input_bytes,
            )
        total += len(data)
        if total > bounds.max_inputs_total:
            raise InputFilesTooLarge(
                f"the input files hold over {bounds.max_inputs_total} bytes in all, the policy's bound",
                field="files", size=total, max_bytes=bounds.max_inputs_total,
            )
        taken[normal] = index
        checked.append(InputFile(normal, bytes(data)))
    return tuple(checked)


#: Media types by file name ending: what an output is served as. Anything else is
#: application/octet-stream; HTML and SVG are served as attachments like the rest, never rendered.
MEDIA_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".svg": "image/svg+xml",
    ".pdf": "application/pdf",
    ".csv": "text/csv",
    ".tsv": "text/tab-separated-values",
    ".txt": "text/plain",
    ".md": "text/markdown",
    ".json": "application/json",
    ".html": "text/html",
    ".xml": "application/xml",
    ".py": "text/x-python",
    ".parquet": "application/vnd.apache.parquet",
    ".zip": "application/zip",
}
IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})


def media_type_of(name: str) -> str:
    base = name.rsplit("/", 1)[-1].lower()
    dot = base.rfind(".")
    return MEDIA_TYPES.get(base[dot:], "application/octet-stream") if dot > 0 else "application/octet-stream"


def output_record(name: str, data: bytes) -> FileRecord:
    return {"name": name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(), "media_type": media_type_of(name)}


#: An output image shown inline (the audit report's thumbnails): PNG, JPEG and GIF only, each at most
#: this many bytes, and only if its bytes begin as the type's do. SVG is never inlined: it can carry script.
THUMBNAIL_MAX_BYTES = 256 * 1024
_SIGNATURES = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/gif": (b"GIF87a", b"GIF89a"),
}


def thumbnail_type(record: FileRecord, data: bytes) -> str | None:
    """The media type to inline an output's bytes as, or None: a PNG, JPEG or GIF by its recorded
    type AND its first bytes, within THUMBNAIL_MAX_BYTES; anything else stays listed only."""
    media_type = record.get("media_type") or media_type_of(record["name"])
    signatures = _SIGNATURES.get(media_type)
    if signatures is None or len(data) > THUMBNAIL_MAX_BYTES or not data.startswith(signatures):
        return None
    return media_type


__all__ = [
    "FileBounds",
    "IMAGE_TYPES",
    "THUMBNAIL_MAX_BYTES",
    "InputFile",
    "InputFilesTooLarge",
    "InvalidInputFile",
    "UnsafeFileName",
    "check_file_name",
    "input_files",
    "media_type_of",
    "output_record",
    "thumbnail_type",
]
