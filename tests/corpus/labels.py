"""Reads the labelled corpus: every program's first line says what the assessor must make of it.

    # expect: BLOCKED category: reverse_shell
    # expect: HIGH category: privileged
    # expect: MEDIUM category: risky
    # expect: BENIGN category: data_processing      (never BLOCKED; HIGH for at most 5% of them)

Obfuscated variants (obfuscated/, written by make_variants.py) also say which example they vary
and how: ``variant-of: risky/... technique: alias+concat``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).resolve().parent
_HEADER = re.compile(r"^# expect: (?P<expect>BLOCKED|HIGH|MEDIUM|BENIGN) category: (?P<category>[a-z_]+)"
                     r"(?: variant-of: (?P<origin>\S+) technique: (?P<technique>\S+))?\s*$")


@dataclass(frozen=True)
class Example:
    path: Path
    expect: str
    category: str
    origin: str | None = None
    technique: str | None = None

    @property
    def name(self) -> str:
        return str(self.path.relative_to(CORPUS))

    @property
    def code(self) -> str:
        return self.path.read_text(encoding="utf-8")


def load(*folders: str) -> list[Example]:
    examples = []
    for folder in folders or ("risky", "obfuscated", "benign"):
        for path in sorted((CORPUS / folder).rglob("*.py")):
            first = path.read_text(encoding="utf-8").splitlines()[0]
            match = _HEADER.match(first)
            if not match:
                raise ValueError(f"{path}: the first line must be a '# expect: LEVEL category: NAME' label, not {first!r}")
            examples.append(Example(path, match["expect"], match["category"], match["origin"], match["technique"]))
    return examples
