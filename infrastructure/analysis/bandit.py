"""Bandit, run in-process: one manager with its plugins loaded once, fed code from memory.

Bandit has no public API for scanning a string, so this adapter drives ``BanditManager`` through
the same per-file entry point its CLI uses (``_parse_file``) with an in-memory file. ``# nosec``
comments are ignored: the code under assessment must not be able to silence its own assessor.
"""

from __future__ import annotations

import io
import logging
import threading
from typing import TYPE_CHECKING, TypedDict

from bandit.core import config as bandit_config
from bandit.core import manager as bandit_manager
from bandit.core import meta_ast, metrics

from mai_safety.domain.assessment import Finding, Submission
from mai_safety.domain.levels import RiskLevel

if TYPE_CHECKING:  # Bandit's own process (bandit_process.py) needs no policy, nor pydantic
    from ..policies import BanditPolicy

_FILENAME = "<submission>"

# Bandit's texts say what it saw; these say what to do instead (the commonest tests; others get a
# generic line).
_ADVICE = {
    "B101": "do not rely on assert for checks that must hold in production",
    "B102": "avoid exec; call the code directly or use a dispatch table",
    "B103": "give files the narrowest permissions they need (e.g. 0o600 or 0o644)",
    "B104": "listen on 127.0.0.1 unless the user asked for a public service",
    "B105": "read passwords from the environment or a secrets store, not the source",
    "B106": "read passwords from the environment or a secrets store, not the source",
    "B108": "use the tempfile module instead of fixed paths in /tmp",
    "B110": "handle or log the exception instead of passing silently",
    "B113": "pass a timeout to every requests call",
    "B301": "load data with json instead of pickle",
    "B302": "do not unmarshal data; use json",
    "B303": "use hashlib.sha256",
    "B307": "use ast.literal_eval for data, or avoid eval",
    "B311": "use the secrets module for tokens and passwords",
    "B321": "use SFTP or HTTPS instead of FTP",
    "B324": "use hashlib.sha256, or usedforsecurity=False for non-security checksums",
    "B402": "use SFTP or HTTPS instead of FTP",
    "B404": "prefer a Python library over running commands",
    "B501": "keep certificate verification on",
    "B506": "use yaml.safe_load",
    "B601": "pass fixed commands to exec_command, never text built from input",
    "B602": "pass an argument list and drop shell=True",
    "B603": "make sure the arguments cannot come from untrusted input",
    "B604": "pass an argument list and drop shell=True",
    "B605": "use subprocess.run with an argument list instead of a shell",
    "B606": "make sure the program and its arguments are fixed",
    "B607": "give the full path of the program",
}


class IssueRecord(TypedDict):
    """What Bandit said about one line, as plain data (the scanner's answer can cross a pipe)."""

    test_id: str
    test: str
    severity: str
    confidence: str
    line: int
    column: int
    cwe: int
    text: str


class BanditReport(TypedDict):
    issues: list[IssueRecord]
    skipped: list[str]  # why Bandit could not read the code, if it could not


class BanditScanner:
    """Bandit's manager, its plugins loaded once, scanning code held in memory. It knows no policy:
    what it returns is what Bandit said, which BanditAnalyzer (or a process of its own,
    bandit_process.py) turns into findings."""

    def __init__(self) -> None:
        logging.getLogger("bandit").setLevel(logging.CRITICAL)
        self._manager = bandit_manager.BanditManager(
            bandit_config.BanditConfig(), "file", quiet=True, ignore_nosec=True
        )
        self._lock = threading.Lock()

    def scan(self, code: str) -> BanditReport:
        data = code.encode("utf-8")
        with self._lock:
            manager = self._manager
            manager.results = []
            manager.skipped = []
            manager.scores = []
            manager.b_ma = meta_ast.BanditMetaAst()
            manager.metrics = metrics.Metrics()
            manager.files_list = [_FILENAME]
            manager._parse_file(_FILENAME, io.BytesIO(data), [_FILENAME])  # noqa: SLF001 - see module docstring
            issues = list(manager.results)
            skipped = list(manager.skipped)
        return {"issues": [_record(issue) for issue in issues], "skipped": [str(reason) for _name, reason in skipped]}


def _record(issue: object) -> IssueRecord:
    return {
        "test_id": str(getattr(issue, "test_id", "")),
        "test": str(getattr(issue, "test", "")),
        "severity": str(getattr(issue, "severity", "")),
        "confidence": str(getattr(issue, "confidence", "")),
        "line": int(getattr(issue, "lineno", 0) or 0),
        "column": max(int(getattr(issue, "col_offset", 0) or 0), 0),
        "cwe": int(getattr(getattr(issue, "cwe", None), "id", 0) or 0),
        "text": str(getattr(issue, "text", "")),
    }


class BanditAnalyzer:
    name = "bandit"

    def __init__(self, policy: BanditPolicy, scanner: BanditScanner | None = None) -> None:
        self._policy = policy
        self._scanner = scanner or BanditScanner()

    def analyze(self, submission: Submission) -> list[Finding]:
        """Findings for the submission's code; a parse failure or an internal error becomes a finding
        of its own. Bandit's levels do not depend on provenance (see policies/assessment.yaml)."""
        return self.findings(self._scanner.scan(submission.code), submission.code)

    def findings(self, report: BanditReport, code: str) -> list[Finding]:
        """The policy's findings for what Bandit reported about ``code``."""
        lines = code.splitlines()
        findings = [self._finding(issue, lines) for issue in report["issues"]]
        for reason in report["skipped"]:
            findings.append(
                Finding(
                    analyzer=self.name,
                    rule_id="analyzer-failed",
                    level=self._policy.failure_level,
                    message=f"Bandit could not analyse the code ({reason}); it is rated at least "
                    f"{self._policy.failure_level.value} because it was not fully checked",
                )
            )
        return findings

    def _finding(self, issue: IssueRecord, lines: list[str]) -> Finding:
        test_id, severity, confidence, line = issue["test_id"], issue["severity"], issue["confidence"], issue["line"]
        snippet = lines[line - 1].strip()[:200] if 0 < line <= len(lines) else ""
        return Finding(
            analyzer=self.name,
            rule_id=f"{test_id}:{issue['test']}",
            level=self._policy.level_for(test_id, severity, confidence),
            message=f"{issue['text'].rstrip('.')}; "
            + _ADVICE.get(test_id, "see Bandit's documentation of this test for the safer alternative"),
            line=line,
            column=issue["column"],
            snippet=snippet,
            severity=severity,
            confidence=confidence,
            cwe=f"CWE-{issue['cwe']}" if issue["cwe"] else "",
        )


__all__ = ["BanditAnalyzer", "BanditReport", "BanditScanner", "IssueRecord", "RiskLevel"]
