"""How an alert is signed, and how a receiver checks it.

The signed bytes are ``<timestamp>.<body>``: the timestamp (Unix seconds, sent in
``X-Mai-Safety-Timestamp``) is inside the MAC, so a receiver that refuses old timestamps and
remembers the alert ids it has seen within that window stops replays. The signature travels as
``X-Mai-Safety-Signature: sha256=<hex>``."""

from __future__ import annotations

import hashlib
import hmac

SIGNATURE_HEADER = "X-Mai-Safety-Signature"
TIMESTAMP_HEADER = "X-Mai-Safety-Timestamp"


def signature(secret: bytes, timestamp: str, body: bytes) -> str:
    digest = hmac.new(secret, timestamp.encode("ascii") + b"." + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def signed_headers(secret: bytes, timestamp: str, body: bytes) -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        TIMESTAMP_HEADER: timestamp,
        SIGNATURE_HEADER: signature(secret, timestamp, body),
    }


def is_authentic(secret: bytes, headers: dict[str, str], body: bytes, *, now: float, tolerance_s: float = 300) -> bool:
    """For a receiver: the signature holds and the timestamp is within ``tolerance_s`` of ``now``."""
    lowered = {name.lower(): value for name, value in headers.items()}
    timestamp = lowered.get(TIMESTAMP_HEADER.lower(), "")
    given = lowered.get(SIGNATURE_HEADER.lower(), "")
    if not timestamp.isdigit() or abs(now - int(timestamp)) > tolerance_s:
        return False
    return hmac.compare_digest(given, signature(secret, timestamp, body))
