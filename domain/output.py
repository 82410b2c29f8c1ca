"""A run's output, kept out of the event that ends it once it is more than a few kilobytes.

An ending's ``outcome`` holds each stream (``stdout``, ``stderr``) as text. A stream up to
``inline_bytes`` (UTF-8) stays there whole, as it always did. A longer one keeps only its first
``inline_bytes`` there (cut at a character boundary), as a preview, and names the whole stream's
UTF-8 bytes, kept in the blob store beside the ledger, by their SHA-256:

    "stdout": "<the first inline_bytes>", "stdout_blob": {"sha256": "<64 hex>", "bytes": 1048576}

The event's hash covers the reference, so the chain binds the bytes as firmly as if they were
inline. An outcome with no ``*_blob`` key (every event written before docs/decisions/0014) holds
its output inline: readers take the absence to mean exactly that. Pure functions, no I/O.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

OUTPUT_STREAMS = ("stdout", "stderr")
#: What policies/ledger.yaml ``output.inline_bytes`` ships with: a page of output per stream.
DEFAULT_INLINE_BYTES = 4096
_SHA256_HEX = re.compile(r"^[0-9a-f]{64}$")


def blob_sha256(data: bytes) -> str:
    """The name of a blob: the lowercase hex SHA-256 of its bytes."""
    return hashlib.sha256(data).hexdigest()


def blob_key(stream: str) -> str:
    return f"{stream}_blob"


class MalformedReference(ValueError):
    """An outcome's ``*_blob`` entry is not a reference this service writes."""


@dataclass(frozen=True)
class BlobReference:
    """The whole of one output stream, named by the SHA-256 of its UTF-8 bytes, and its length."""

    sha256: str
    size: int

    def to_dict(self) -> dict[str, Any]:
        return {"sha256": self.sha256, "bytes": self.size}

    @classmethod
    def from_dict(cls, data: object) -> "BlobReference":
        if not isinstance(data, dict):
            raise MalformedReference(f"a blob reference is an object, not {type(data).__name__}")
        sha256, size = data.get("sha256"), data.get("bytes")
        if not isinstance(sha256, str) or not _SHA256_HEX.match(sha256):
            raise MalformedReference(f"its sha256 {sha256!r} is not 64 lowercase hex digits")
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise MalformedReference(f"its size {size!r} is not a count of bytes")
        return cls(sha256, size)


def split_output(text: str, inline_bytes: int) -> tuple[str, bytes | None]:
    """What of ``text`` stays in the event, and the bytes to keep as a blob (None: it all fits).

    The preview is the longest prefix of whole characters within ``inline_bytes``."""
    data = text.encode("utf-8")
    if len(data) <= inline_bytes:
        return text, None
    return data[:inline_bytes].decode("utf-8", errors="ignore"), data


def references(outcome: Mapping[str, Any]) -> list[tuple[str, BlobReference]]:
    """The blobs an outcome names, by stream; raises MalformedReference for one that is not ours."""
    found = []
    for stream in OUTPUT_STREAMS:
        entry = outcome.get(blob_key(stream))
        if entry is not None:
            try:
                found.append((stream, BlobReference.from_dict(entry)))
            except MalformedReference as exc:
                raise MalformedReference(f"{blob_key(stream)}: {exc}") from None
    return found


def references_in_state(state: bytes) -> list[tuple[str, BlobReference]]:
    """The blobs an ending event names, read from its stored state (eventsourcing's JSON, where
    the outcome is a plain object) without the application's mapper: a bundle is checked with
    no application at hand. A state that is not such JSON names nothing: the chain hashes
    already report a state that was changed."""
    # JSON can spell "_blob" only as written or with a \u escape: a state holding neither names
    # no blob, and most endings skip the parse (about 12 µs each, as much as hashing the event).
    if b"_blob" not in state and b"files_" not in state and b"\\u" not in state:
        return []
    try:
        data = json.loads(state)
    except (ValueError, UnicodeDecodeError):
        return []
    if not isinstance(data, dict):
        return []
    outcome = data.get("outcome")
    named = references(outcome) if isinstance(outcome, dict) else []
    # The files a run was given (Assessed) and left (its ending): each one's bytes are a blob too.
    named += file_references(data.get("files_in"), "input")
    if isinstance(outcome, dict):
        named += file_references(outcome.get("files_out"), "output")
    return named


def file_references(records: object, kind: str) -> list[tuple[str, BlobReference]]:
    """The blobs a list of file records names (domain.files), each as ``"<kind> file <name>"``."""
    if records is None:
        return []
    if not isinstance(records, list):
        raise MalformedReference(f"the {kind} files are not a list")
    found = []
    for record in records:
        if not isinstance(record, dict):
            raise MalformedReference(f"an {kind} file's record is not an object")
        try:
            found.append((f"{kind} file {str(record.get('name'))[:200]!r}", BlobReference.from_dict(record)))
        except MalformedReference as exc:
            raise MalformedReference(f"{kind} file {record.get('name')!r}: {exc}") from None
    return found
