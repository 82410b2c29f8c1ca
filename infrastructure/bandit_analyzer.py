"""Bandit, run in-process: one manager with its plugins loaded once, fed code from memory.

Bandit has no public API for scanning a string, so this adapter drives ``BanditManager`` through
the same per-file entry point its CLI uses (``_parse_file``) with an in-memory file. ``# nosec``
comments are ignored: the code under assessment must not be able to silence its own assessor.
"""

from __future__ import annotations

import io
import logging
import threading

from bandit.core import config as bandit_config
from bandit.core import manager as bandit_manager
from bandit.core import meta_ast, metrics

from mai_safety.domain.assessment import Finding
from mai_safety.domain.levels import RiskLevel

from .policy_loader import BanditPolicy

_FILENAME = "<submission>"


class BanditAnalyzer:
    name = "bandit"

    def __init__(self, policy: BanditPolicy) -> None:
        self._policy = policy
        logging.getLogger("bandit").setLevel(logging.CRITICAL)
        self._manager = bandit_manager.BanditManager(
            bandit_config.BanditConfig(), "file", quiet=True, ignore_nosec=True
        )
        self._lock = threading.Lock()

    def analyze(self, code: str) -> list[Finding]:
        """Findings for ``code``; a parse failure or an internal error becomes a finding of its own."""
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
        lines = code.splitlines()
        findings = [self._finding(issue, lines) for issue in issues]
        for _name, reason in skipped:
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

    def _finding(self, issue: object, lines: list[str]) -> Finding:
        test_id = getattr(issue, "test_id", "")
        severity = str(getattr(issue, "severity", ""))
        confidence = str(getattr(issue, "confidence", ""))
        line = int(getattr(issue, "lineno", 0) or 0)
        cwe = getattr(getattr(issue, "cwe", None), "id", 0) or 0
        snippet = lines[line - 1].strip()[:200] if 0 < line <= len(lines) else ""
        return Finding(
            analyzer=self.name,
            rule_id=f"{test_id}:{getattr(issue, 'test', '')}",
            level=self._policy.level_for(test_id, severity, confidence),
            message=str(getattr(issue, "text", "")),
            line=line,
            column=max(int(getattr(issue, "col_offset", 0) or 0), 0),
            snippet=snippet,
            severity=severity,
            confidence=confidence,
            cwe=f"CWE-{cwe}" if cwe else "",
        )


__all__ = ["BanditAnalyzer", "RiskLevel"]
