"""The unified diff of a revision against the code it revises, bounded for the ledger."""

from __future__ import annotations

import difflib

#: At most this much of a diff is kept in an event (UTF-8 bytes); a longer one is cut and marked.
MAX_DIFF_BYTES = 64 * 1024
CUT_MARK = "\n[diff cut at {limit} bytes of {size}]\n"


def code_diff(before: str, after: str, before_name: str, after_name: str, limit: int = MAX_DIFF_BYTES) -> str:
    """``before`` to ``after`` as a unified diff ("" when equal), cut at ``limit`` bytes with a mark."""
    before, after = _ended(before), _ended(after)
    diff = "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True), after.splitlines(keepends=True), fromfile=before_name, tofile=after_name
        )
    )
    encoded = diff.encode("utf-8")
    if len(encoded) <= limit:
        return diff
    return encoded[:limit].decode("utf-8", errors="ignore") + CUT_MARK.format(limit=limit, size=len(encoded))


def _ended(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"
