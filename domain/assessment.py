"""Findings, the assessment that gathers them, and the rule that validates a submission."""

from __future__ import annotations

import hashlib
import io
import tokenize
from dataclasses import dataclass, field

from .errors import InvalidSubmission, SubmissionTooLarge
from .levels import GateDecision, Provenance, RiskLevel
from .payloads import FindingRecord


@dataclass(frozen=True)
class Finding:
    """One thing an analyzer saw, already mapped to our level by the policy."""

    analyzer: str
    rule_id: str
    level: RiskLevel
    message: str
    line: int = 0
    column: int = 0
    snippet: str = ""
    severity: str = ""
    confidence: str = ""
    cwe: str = ""

    def to_dict(self) -> FindingRecord:
        return {
            "analyzer": self.analyzer,
            "rule_id": self.rule_id,
            "level": self.level.value,
            "message": self.message,
            "line": self.line,
            "column": self.column,
            "snippet": self.snippet,
            "severity": self.severity,
            "confidence": self.confidence,
            "cwe": self.cwe,
        }

    @classmethod
    def from_dict(cls, data: FindingRecord) -> "Finding":
        return cls(
            analyzer=data["analyzer"],
            rule_id=data["rule_id"],
            level=RiskLevel(data["level"]),
            message=data["message"],
            line=data.get("line", 0),
            column=data.get("column", 0),
            snippet=data.get("snippet", ""),
            severity=data.get("severity", ""),
            confidence=data.get("confidence", ""),
            cwe=data.get("cwe", ""),
        )


@dataclass(frozen=True)
class Assessment:
    """The verdict on one submission: its level, why, and what it cost to reach."""

    level: RiskLevel
    findings: tuple[Finding, ...] = ()
    analyzers: tuple[str, ...] = ()
    duration_ms: float = 0.0
    complexity: dict[str, int] = field(default_factory=dict)

    @property
    def decision(self) -> GateDecision:
        return GateDecision.for_level(self.level)


@dataclass(frozen=True)
class Submission:
    """Code handed to us, checked once at the door so that nothing later meets bad input."""

    code: str
    provenance: Provenance
    sha256: str

    @classmethod
    def from_bytes(cls, raw: bytes, provenance: Provenance, max_bytes: int, source: str = "the code") -> "Submission":
        check_submission_bytes(raw, max_bytes, source)
        code = raw.decode("utf-8")
        return cls(code=code, provenance=provenance, sha256=hashlib.sha256(raw).hexdigest())


def check_submission_bytes(raw: bytes, max_bytes: int, source: str) -> None:
    """Refuse code we cannot assess honestly, naming the problem and what to do."""
    if not raw.strip():
        raise InvalidSubmission(f"{source} is empty: give a Python program with at least one statement")
    if len(raw) > max_bytes:
        raise SubmissionTooLarge(
            f"{source} is {len(raw)} bytes, over the limit of {max_bytes} bytes: split the program",
            size=len(raw),
            max_bytes=max_bytes,
        )
    if b"\x00" in raw:
        position = raw.index(b"\x00")
        raise InvalidSubmission(
            f"{source} contains a NUL byte at offset {position}: Python source cannot hold one; "
            "remove it (is this a binary file?)"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidSubmission(
            f"{source} is not valid UTF-8 (byte {exc.start}): save it as UTF-8 (without a coding line) and try again"
        ) from None
    check_declared_encoding(raw, text, source)


def check_declared_encoding(raw: bytes, text: str, source: str) -> None:
    """Python reads a program by the encoding its first two lines declare (PEP 263), not as UTF-8:
    ``# coding: utf-7`` turns ``+AAo-`` inside a comment into a new line that runs. The analyzers
    read ``text``, the UTF-8 reading; a declaration under which Python would read other text (or
    none at all) is refused, so that what is assessed is what runs (docs/decisions/0031). A
    declaration that gives the same text (latin-1 on an ASCII program, say) is harmless and kept."""
    try:
        declared, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as exc:  # a codec Python does not know, or a BOM with another declaration
        reason = "a UTF-8 byte-order mark and a coding line for another encoding" if raw.startswith(b"\xef\xbb\xbf") else exc.msg
        raise InvalidSubmission(
            f"{source} declares an encoding Python refuses ({reason}): remove the coding line; mai-safety assesses and runs UTF-8"
        ) from None
    if declared in ("utf-8", "utf-8-sig"):
        return
    try:
        python_reads = raw.decode(declared)
    except (UnicodeDecodeError, LookupError):
        python_reads = None
    if python_reads != text:
        where = next(
            (index for index, (ours, theirs) in enumerate(zip(text, python_reads or "")) if ours != theirs),
            min(len(text), len(python_reads or "")),
        )
        line = text.count("\n", 0, where) + 1
        raise InvalidSubmission(
            f"{source} declares the encoding {declared!r}, under which Python reads other text than the "
            f"UTF-8 that is assessed (from line {line}): remove the coding line and save it as UTF-8"
        )
