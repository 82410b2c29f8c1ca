"""Signed checkpoints: the service's signed word that the ledger had a given head at a given time.

A checkpoint states ``(sequence, position, ledger hash at that position, time, reason, key id,
link to the checkpoint before)``; the service signs that statement (Ed25519, in infrastructure).
Recomputing hashes needs no secret, so without checkpoints whoever can write the database could
rewrite history and recompute every hash, or cut off the tail; with them, both are caught,
because the rewritten or missing events no longer match what was signed.

Checkpoints are themselves chained: each names the digest (``link``) of the one before, signature
included. So the newest checkpoint's signature vouches for every earlier checkpoint, and a
verifier checks one signature per unbroken run of checkpoints rather than one per checkpoint (a
signature check costs as much as hashing a few hundred events). Encoding as in ``chain.py``;
see docs/decisions/0007-signed-checkpoints.md.

Checkpoint encodings are versioned and never change meaning. **v1** (tag
``mai-safety/checkpoint/v1``) signs the head and nothing more. **v2** (tag
``mai-safety/checkpoint/v2``, the same fields and then ``macs_from``) also declares that every
event from position ``macs_from`` on carries a valid event MAC (``chain.EventMac``): the signer
checked them up to its position, and every later event must carry one too. Events before
``macs_from`` were written before MACs existed; they are accepted without one only where a
checkpoint covers them, and no v1 checkpoint may follow a v2 one (docs/decisions/0011).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from .chain import encode_field

_CHECKPOINT_PREFIX = encode_field(b"mai-safety/checkpoint/v1")
_CHECKPOINT_V2_PREFIX = encode_field(b"mai-safety/checkpoint/v2")
#: The encodings this code reads; it writes the newest.
CHECKPOINT_VERSIONS = (1, 2)
CURRENT_CHECKPOINT_VERSION = 2
_LINK_PREFIX = encode_field(b"mai-safety/checkpoint-link/v1")
_INT_LENGTH = (8).to_bytes(8, "big")


def checkpoint_message(
    sequence: int,
    position: int,
    ledger_hash: bytes,
    signed_at: str,
    reason: str,
    key_id: str,
    previous: bytes,
    *,
    version: int = 1,
    macs_from: int | None = None,
) -> bytes:
    """The exact bytes that are signed: the tag of the encoding, then each field as in ``chain.py``
    (v2 appends ``macs_from``). An encoding this code does not know gets a tag of its own, which
    no signature made by this code covers."""
    texts = [text.encode("utf-8") for text in (signed_at, reason, key_id)]
    if version == 1:
        prefix, tail = _CHECKPOINT_PREFIX, b""
    elif version == 2 and macs_from is not None:
        prefix, tail = _CHECKPOINT_V2_PREFIX, _INT_LENGTH + macs_from.to_bytes(8, "big", signed=True)
    else:
        prefix, tail = encode_field(f"mai-safety/checkpoint/unknown-v{version}".encode()), b""
    return b"".join(
        (
            prefix,
            _INT_LENGTH,
            sequence.to_bytes(8, "big", signed=True),
            _INT_LENGTH,
            position.to_bytes(8, "big", signed=True),
            len(ledger_hash).to_bytes(8, "big"),
            ledger_hash,
            *(part for text in texts for part in (len(text).to_bytes(8, "big"), text)),
            len(previous).to_bytes(8, "big"),
            previous,
            tail,
        )
    )


@dataclass(frozen=True)
class Checkpoint:
    sequence: int
    position: int
    ledger_hash: bytes
    signed_at: str  # ISO 8601, UTC, microseconds: written by the signer's clock
    reason: str
    key_id: str
    previous: bytes  # the link of the checkpoint before; GENESIS for the first
    signature: bytes
    version: int = 1  # the encoding: 1 before event MACs, 2 declares them from ``macs_from`` on
    macs_from: int | None = None  # v2: the first position whose event carries a MAC

    @cached_property
    def signed_time(self) -> datetime | None:
        """``signed_at`` read (None if it is not a time): sealing asks for it on every append."""
        try:
            return datetime.fromisoformat(self.signed_at)
        except (ValueError, TypeError):
            return None

    def message(self) -> bytes:
        return checkpoint_message(
            self.sequence,
            self.position,
            self.ledger_hash,
            self.signed_at,
            self.reason,
            self.key_id,
            self.previous,
            version=self.version,
            macs_from=self.macs_from,
        )

    @property
    def declares_macs(self) -> bool:
        return self.version >= 2

    def link(self) -> bytes:
        """What the next checkpoint names as ``previous``: binds this one, signature included."""
        message = self.message()
        return hashlib.sha256(
            b"".join(
                (_LINK_PREFIX, len(message).to_bytes(8, "big"), message, len(self.signature).to_bytes(8, "big"), self.signature)
            )
        ).digest()

    def to_dict(self) -> dict[str, object]:
        """A v1 checkpoint as it always was; later encodings add ``version`` and their fields."""
        data: dict[str, object] = {
            "sequence": self.sequence,
            "position": self.position,
            "ledger_hash": self.ledger_hash.hex(),
            "signed_at": self.signed_at,
            "reason": self.reason,
            "key_id": self.key_id,
            "previous": self.previous.hex(),
            "signature": self.signature.hex(),
        }
        if self.version != 1:
            data["version"] = self.version
            data["macs_from"] = self.macs_from
        return data

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> "Checkpoint":
        """Raises KeyError, TypeError or ValueError on anything malformed (a missing ``version``
        is 1, the encoding from before versions were written down)."""
        version = int(str(data.get("version", 1)))
        if version not in CHECKPOINT_VERSIONS:
            raise ValueError(f"checkpoint encoding v{version} is not one this version of mai-safety reads")
        macs_from = int(str(data["macs_from"])) if version >= 2 else None
        if macs_from is not None and macs_from < 1:
            raise ValueError("macs_from is a ledger position, counted from 1")
        return cls(
            sequence=int(str(data["sequence"])),
            position=int(str(data["position"])),
            ledger_hash=bytes.fromhex(str(data["ledger_hash"])),
            signed_at=str(data["signed_at"]),
            reason=str(data["reason"]),
            key_id=str(data["key_id"]),
            previous=bytes.fromhex(str(data["previous"])),
            signature=bytes.fromhex(str(data["signature"])),
            version=version,
            macs_from=macs_from,
        )
