"""Verdicts kept by the code's hash, for a process that assesses again (the service).

An assessment depends on the code, its provenance and the rule set (the analyzers' policies, the
known-threat list): one ``AnalyzerSuite`` is built per policy version, so a cache kept by the
suite is keyed by the code's SHA-256 and its provenance alone. A verdict that an analyzer's failure
or timeout shaped is never kept: the next submission is assessed afresh. That includes Semgrep's
own per-rule timeout (``semgrep-timeout``, a rule out of time or memory): how long a rule takes
depends on how busy the host is, so such a verdict is shaped by the load, not by the code alone.
Bounded by entries (LRU).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from mai_safety.domain.assessment import Assessment, Submission

#: Findings that say an analyzer did not finish its work (the suite's deadline, a failure, or one
#: of Semgrep's rules out of time or memory): such a verdict is not kept.
_NOT_KEPT = frozenset({"analyzer-failed", "analyzer-timeout", "semgrep-timeout"})


class AssessmentCache:
    def __init__(self, entries: int) -> None:
        self.entries = entries
        self._kept: OrderedDict[tuple[str, str], Assessment] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0

    @staticmethod
    def _key(submission: Submission) -> tuple[str, str]:
        return submission.sha256, submission.provenance.value

    def get(self, submission: Submission) -> Assessment | None:
        if self.entries <= 0:
            return None
        with self._lock:
            found = self._kept.get(self._key(submission))
            if found is not None:
                self._kept.move_to_end(self._key(submission))
                self.hits += 1
            return found

    def keep(self, submission: Submission, assessment: Assessment) -> None:
        if self.entries <= 0 or any(finding.rule_id in _NOT_KEPT for finding in assessment.findings):
            return
        with self._lock:
            self._kept[self._key(submission)] = assessment
            self._kept.move_to_end(self._key(submission))
            while len(self._kept) > self.entries:
                self._kept.popitem(last=False)
