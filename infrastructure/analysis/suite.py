"""The assessor: every analyzer over the same submission, findings merged, the level the highest.

Analyzers run concurrently under one deadline: Semgrep spends its time in a child process, handed
the code first (``HandingOffAnalyzer``), and so, in a long-lived suite, does Bandit
(bandit_process.py), so both overlap with the AST analyzer; in a one-shot process Bandit shares the
interpreter with the AST analyzer, and they run one after the other.

Where each one runs, and why (issue #29, decision 0059):
- An analyzer that bounds its own time (``SelfBoundingAnalyzer``: the AST analysis, which stops at
  the deadline it is given) runs on the caller's thread, right after the hand-offs. The caller is
  already on a core; a thread of its own had to be scheduled beside the two processes just handed
  the code, on two cores, and waited for one (measured: the AST analysis began 4-6 ms late).
- Any other in-process analyzer runs in a thread of its own, as the deadline needs.
- The wait for a handed-off analyzer's answer runs in a thread started once the caller's own
  analysis is done: reading an answer takes the interpreter's lock, and taken in the middle of the
  AST analysis it held both up.

An analyzer that raises or misses its deadline is not trusted to have found nothing: its failure is
a finding at the policy's failure level (at least MEDIUM), naming the analyzer, so a broken or
stuck analyzer can never produce LOW. A stuck analyzer's thread is left behind (threads cannot be
killed); Semgrep's own process is killed by its adapter before the deadline.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from collections.abc import Callable
from typing import Any, Protocol, cast, runtime_checkable

from mai_safety.application.ports import Assessor
from mai_safety.domain.assessment import Assessment, Finding, Submission
from mai_safety.domain.levels import RiskLevel

from .bounds import AnalysisOverran
from .cache import AssessmentCache


class Analyzer(Protocol):
    name: str

    def analyze(self, submission: Submission) -> list[Finding]: ...


@runtime_checkable
class MeasuringAnalyzer(Protocol):
    """An analyzer that also measures the code's complexity while it reads it."""

    name: str

    def analyze_and_measure(self, submission: Submission) -> tuple[list[Finding], dict[str, int]]: ...


@runtime_checkable
class BatchAnalyzer(Protocol):
    """An analyzer that reads many submissions at once cheaper than one by one."""

    name: str

    def analyze_many(self, submissions: list[Submission]) -> list[list[Finding]]: ...


@runtime_checkable
class HandingOffAnalyzer(Protocol):
    """An analyzer whose work is done by another process: it hands the code over at once and
    returns what waits for the findings."""

    name: str

    def hand_off(self, submission: Submission) -> Callable[[], list[Finding]]: ...


@runtime_checkable
class SelfBoundingAnalyzer(Protocol):
    """An in-process analyzer that stops by itself at a deadline: it raises ``AnalysisOverran`` once
    ``time.monotonic()`` has passed ``deadline``, checking often enough that it overruns it by no more
    than a few milliseconds. The suite runs it on the caller's thread."""

    name: str

    def analyze_within(self, submission: Submission, deadline: float) -> tuple[list[Finding], dict[str, int]]:
        """Findings and measures, as ``MeasuringAnalyzer.analyze_and_measure``, by ``deadline``."""
        ...


class _Run(threading.Thread):
    def __init__(self, analyzer: Any, work: Any) -> None:
        super().__init__(daemon=True, name=f"analyzer-{analyzer.name}")
        self.analyzer = analyzer
        self._work = work
        self.result: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self._work()
        except BaseException as exc:  # noqa: BLE001 - any failure of an analyzer must fail closed
            self.error = exc


#: Verdicts a long-lived process keeps (cache.py): a few hundred KiB at most.
CACHE_ENTRIES = 1024


class AnalyzerSuite(Assessor):
    def __init__(
        self, analyzers: list[Any], failure_level: RiskLevel, deadline_s: float = 20.0, cache_entries: int = 0
    ) -> None:
        """``cache_entries``: how many verdicts to keep by the code's hash (cache.py); 0 keeps none."""
        self._analyzers = list(analyzers)
        self._failure_level = max(failure_level, RiskLevel.MEDIUM)
        self._deadline_s = deadline_s
        self.cache = AssessmentCache(cache_entries)

    @property
    def analyzers(self) -> tuple[Any, ...]:
        return tuple(self._analyzers)

    def only(self, *names: str) -> "AnalyzerSuite":
        """A suite of some of these analyzers (the same objects), keeping no verdicts: a session's
        whole program is judged by the AST analysis alone (docs/decisions/0040)."""
        return AnalyzerSuite([each for each in self._analyzers if each.name in names], self._failure_level, self._deadline_s)

    def acting_lines(self, code: str) -> set[int] | None:
        """The lines whose statements a session keeps in every later cell's context, as the analyzer
        that can tell says (the AST analysis); None if none can (then every line counts)."""
        for analyzer in self._analyzers:
            acting = getattr(analyzer, "acting_lines", None)
            if acting is not None:
                return cast(set[int] | None, acting(code))
        return None

    def close(self) -> None:
        """Release what analyzers hold (Semgrep's waiting engine process and its folder)."""
        for analyzer in self._analyzers:
            close = getattr(analyzer, "close", None)
            if close is not None:
                close()

    def assess(self, submission: Submission) -> Assessment:
        kept = self.cache.get(submission)
        if kept is not None:
            return kept  # the same code, provenance and rule set: the same verdict, as first recorded
        assessment = self._assess(submission)
        self.cache.keep(submission, assessment)
        return assessment

    def _assess(self, submission: Submission) -> Assessment:
        started = time.perf_counter()
        deadline = time.monotonic() + self._deadline_s
        # The hand-offs first, on this thread (``_work``); then the threads of the in-process analyzers
        # that cannot bound themselves; then this thread's own analysis; then the waits (module docstring).
        own = [analyzer for analyzer in self._analyzers if isinstance(analyzer, SelfBoundingAnalyzer)]
        works = [(analyzer, self._work(analyzer, submission)) for analyzer in self._analyzers if analyzer not in own]
        threaded = [_Run(analyzer, work) for analyzer, work in works if not isinstance(analyzer, HandingOffAnalyzer)]
        for run in threaded:
            run.start()
        outcomes: dict[int, Any] = {id(analyzer): self._bounded(analyzer, submission, deadline) for analyzer in own}
        waits = [_Run(analyzer, work) for analyzer, work in works if isinstance(analyzer, HandingOffAnalyzer)]
        for run in waits:
            run.start()
        for run in threaded + waits:
            run.join(max(deadline - time.monotonic(), 0))
            outcomes[id(run.analyzer)] = self._outcome(run)
        findings: list[Finding] = []
        complexity: dict[str, int] = {}
        for analyzer in self._analyzers:  # in the suite's order, whoever ran it
            outcome = outcomes[id(analyzer)]
            if isinstance(outcome, Finding):
                findings.append(outcome)
            elif isinstance(analyzer, (MeasuringAnalyzer, SelfBoundingAnalyzer)):
                found, measured = outcome
                findings.extend(found)
                complexity = dict(measured)
            else:
                findings.extend(outcome)
        return self._assessment(submission, findings, complexity, started)

    def _bounded(self, analyzer: Any, submission: Submission, deadline: float) -> Any:
        """A self-bounding analyzer's outcome, run here: its findings and measures, or its failure."""
        try:
            return analyzer.analyze_within(submission, deadline)
        except AnalysisOverran:
            return self._overran(analyzer.name)
        except Exception as exc:  # noqa: BLE001 - any failure of an analyzer must fail closed
            return self._failed(analyzer.name, exc)

    def assess_many(self, submissions: list[Submission]) -> list[Assessment]:
        """Assess many submissions; analyzers that can read them in one go do so."""
        started = time.perf_counter()
        runs = []
        for analyzer in self._analyzers:
            if isinstance(analyzer, BatchAnalyzer):
                work = (lambda a: lambda: a.analyze_many(submissions))(analyzer)
            else:
                work = (lambda a: lambda: [self._work(a, s)() for s in submissions])(analyzer)
            runs.append(_Run(analyzer, work))
        for run in runs:
            run.start()
        deadline = time.monotonic() + self._deadline_s * max(1, len(submissions))
        per_findings: list[list[Finding]] = [[] for _ in submissions]
        per_complexity: list[dict[str, int]] = [{} for _ in submissions]
        for run in runs:
            run.join(max(deadline - time.monotonic(), 0))
            outcome = self._outcome(run)
            for index in range(len(submissions)):
                if isinstance(outcome, Finding):
                    per_findings[index].append(outcome)
                elif isinstance(run.analyzer, MeasuringAnalyzer):
                    found, measured = outcome[index]
                    per_findings[index].extend(found)
                    per_complexity[index] = dict(measured)
                else:
                    per_findings[index].extend(outcome[index])
        elapsed = time.perf_counter() - started
        return [
            self._assessment(s, per_findings[i], per_complexity[i], started, elapsed / len(submissions))
            for i, s in enumerate(submissions)
        ]

    @staticmethod
    def _work(analyzer: Any, submission: Submission) -> Any:
        """What the analyzer's thread will run. One that hands its work to another process does
        so here, on the caller's thread, before any analyzer's thread starts: the others share the
        interpreter's lock, and a hand-off made beside them waits for it (Semgrep's engine got the
        code only once Bandit and the AST analysis had finished)."""
        if isinstance(analyzer, HandingOffAnalyzer):
            try:
                return analyzer.hand_off(submission)
            except Exception as exc:  # noqa: BLE001 - reported by the analyzer's run, as its failure
                failure = exc

                def failed() -> Any:
                    raise failure

                return failed
        if isinstance(analyzer, MeasuringAnalyzer):
            return lambda: analyzer.analyze_and_measure(submission)
        return lambda: analyzer.analyze(submission)

    def _outcome(self, run: _Run) -> Any:
        if run.is_alive():
            return self._overran(run.analyzer.name)
        if run.error is not None:
            return self._failed(run.analyzer.name, run.error)
        return run.result

    def _overran(self, name: str) -> Finding:
        return Finding(
            analyzer=name,
            rule_id="analyzer-timeout",
            level=self._failure_level,
            message=f"{name} did not finish within {self._deadline_s:g} s, so the code was not fully checked; "
            "shorten or simplify the program, or ask for a manual review",
            severity="MEDIUM",
            confidence="HIGH",
        )

    def _failed(self, name: str, exc: BaseException) -> Finding:
        return Finding(
            analyzer=name,
            rule_id="analyzer-failed",
            level=self._failure_level,
            message=f"{name} failed ({type(exc).__name__}: {str(exc)[:200]}), so the code was not fully checked; "
            "it is rated at least " + self._failure_level.value + " until the analyzer works again",
            severity="MEDIUM",
            confidence="HIGH",
        )

    def _assessment(
        self,
        submission: Submission,
        findings: list[Finding],
        complexity: dict[str, int],
        started: float,
        elapsed: float | None = None,
    ) -> Assessment:
        findings.sort(key=lambda finding: (-finding.level.rank, finding.line, finding.analyzer, finding.rule_id))
        if not complexity:
            complexity = {"lines": submission.code.count("\n") + (0 if submission.code.endswith("\n") else 1)}
        return Assessment(
            level=RiskLevel.highest([finding.level for finding in findings]),
            findings=tuple(findings),
            analyzers=tuple(analyzer.name for analyzer in self._analyzers),
            duration_ms=(elapsed if elapsed is not None else time.perf_counter() - started) * 1000,
            complexity=complexity,
        )


def build_analyzers(
    policies_dir: Path,
    bandit_policy: Any,
    *,
    only: tuple[str, ...] | None = None,
    warm_semgrep: bool | None = None,
    policy: Any = None,
    cache_entries: int | None = None,
    bandit_process: bool | None = None,
) -> AnalyzerSuite:
    """The assessor with all three analyzers (Semgrep, Bandit, AST) configured from ``policies_dir``.

    ``bandit_policy`` is ``Policies.bandit`` from infrastructure/policies. ``only`` keeps a subset by name
    (for benchmarks); ``warm_semgrep`` overrides the policy's ``semgrep.warm_engine``, and unless it
    is False (a one-shot process) the suite keeps its last verdicts by the code's hash (cache.py;
    ``cache_entries`` says how many, 0 for none: a benchmark of the analyzers). Likewise, unless it
    is False, Bandit reads the code in a process of its own, beside the AST analysis
    (bandit_process.py); ``bandit_process`` overrides that (benchmarks compare the two). Raises
    ConfigurationError naming the file and key when a policy is wrong or the engine is missing.
    """
    from .policy import load_analysis_policy
    from .ast import AstAnalyzer
    from .bandit import BanditAnalyzer
    from .semgrep import SemgrepAnalyzer

    policy = policy or load_analysis_policy(policies_dir)
    wanted = set(only) if only is not None else {"semgrep", "bandit", "ast"}
    analyzers: list[Any] = []
    if "semgrep" in wanted:  # first: its engine process starts while the others read the code
        analyzers.append(SemgrepAnalyzer(policy.semgrep, failure_level=policy.failure_level, warm=warm_semgrep))
    if "bandit" in wanted:
        bandit = BanditAnalyzer(bandit_policy)
        if bandit_process if bandit_process is not None else warm_semgrep is not False:
            from .bandit_process import BanditInItsOwnProcess

            analyzers.append(BanditInItsOwnProcess(bandit, deadline_s=policy.deadline_s))
        else:
            analyzers.append(bandit)
    if "ast" in wanted:
        analyzers.append(AstAnalyzer(policy.ast, policy.threats, policy.paths))
    failure_level = max(policy.failure_level, getattr(bandit_policy, "failure_level", RiskLevel.MEDIUM))
    if cache_entries is None:
        cache_entries = 0 if warm_semgrep is False else CACHE_ENTRIES
    return AnalyzerSuite(analyzers, failure_level, deadline_s=policy.deadline_s, cache_entries=cache_entries)
