"""How code is normalised before it is hashed against the known-threat list (policies/threats.yaml).

Whitespace is removed from every line, and blank and comment-only lines are dropped, so that
re-indenting or re-spacing a known snippet does not change its hash. A ``file`` hash covers all
remaining lines joined by newlines; a ``line`` hash covers one line. Lines shorter than
MIN_LINE_CHARS after normalising are never hashed: they are too common to identify anything.

To add an entry, print the hashes of a snippet and copy the ones you want into threats.yaml:

    .venv/bin/python -m mai_safety.infrastructure.analysis.threat_hashes snippet.py
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator
from pathlib import Path

MIN_LINE_CHARS = 24


def normalise_line(line: str) -> str:
    return "".join(line.split())


def _kept(code: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(code.splitlines(), start=1):
        normal = normalise_line(line)
        if normal and not normal.startswith("#"):
            yield number, normal


def file_digest(code: str) -> str:
    return hashlib.sha256("\n".join(normal for _, normal in _kept(code)).encode("utf-8")).hexdigest()


def line_digests(code: str) -> Iterator[tuple[int, str]]:
    """(line number, sha256) of every line long enough to be worth identifying."""
    for number, normal in _kept(code):
        if len(normal) >= MIN_LINE_CHARS:
            yield number, hashlib.sha256(normal.encode("utf-8")).hexdigest()


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m mai_safety.infrastructure.analysis.threat_hashes FILE", file=sys.stderr)
        return 2
    code = Path(argv[0]).read_text(encoding="utf-8")
    print(f"file  {file_digest(code)}")
    lines = code.splitlines()
    for number, digest in line_digests(code):
        print(f"line  {digest}  # {number}: {lines[number - 1].strip()[:60]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
