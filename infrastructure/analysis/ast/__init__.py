"""Our own analyzer over Python's ast, for what Bandit and Semgrep do not see.

It resolves aliases and indirection (``from os import system as s``, ``getattr(os, 'sys'+'tem')``,
``__import__('o'+'s')``, ``importlib.import_module``, ``globals()['__builtins__']``), folds the
building of constant strings (concatenation, join, f-strings, %, format, slicing and reversal,
``chr`` lists, ``bytes.fromhex``, base64/binascii/codecs/zlib/gzip/bz2/lzma decoding), and follows
a few kinds of data through variables: what came from the network, secrets, socket descriptors.
With that it recognises behaviour rather than spellings: a socket wired to a shell, secrets read
and sent, wipes, fork bombs, miners, security tooling switched off, encoded payloads executed, and
the privileged and risky calls below them. Code handed to exec/eval/compile is analysed in turn.

It never trusts the input: the walk over the tree is iterative (no recursion on the tree's
depth), the evaluator's recursion is bounded, folded values are capped in size, RecursionError and
MemoryError from the parser become findings, and code that does not parse is still read: the
parts that parse on their own are analysed as usual and the rest is scanned token by token.

The analysis is deliberately flow-insensitive in places (one environment for all scopes, loops
seen once); it errs towards reporting. Levels are the policy's (policies/analysis.yaml).

Where each part lives: objects with one job each, every one handed the run's AnalysisState and the
collaborators it calls, composed in ProgramAnalysis (docs/decisions/0039-ast-analysis-as-objects.md):
    values.py            the abstract values the evaluator computes, and what can be read off them
    state.py             what one run knows: the environment, the facts gathered, the hits (AnalysisState)
    roles.py             what the objects ask of the evaluator (Evaluates), so no part's module imports another's
    evaluator.py         what an expression's value may be; the evaluator's one door (ExpressionEvaluator)
    operations.py        its part for operators, subscripts, slices and comprehensions (OperationEvaluator)
    calls.py             its part for what calling a known or local function returns (CallEvaluator)
    folding.py           its part for pure functions and string/bytes methods over constants (ConstantFolder)
    opacity.py           the opacity rule; its part for what is opaque or proven harmless (OpacityResolver)
    walker.py            the passes over the tree: name binding, scopes, the hand-off to the judges (TreeWalker)
    loops.py             what each loop iterates, and whether it ends (LoopTracker)
    judges.py            a call turned into facts and hits; the dispatch to the judges below (CallJudges)
    execution_judges.py  commands, executed code, imports, forks, signals (ExecutionJudges)
    resource_judges.py   files, paths, permissions, the network, privileges (ResourceJudges)
    opacity_judges.py    the sinks of opaque values: callees, entry points, pickles, loaders (OpacityJudges)
    program.py           the objects put together, the passes run, the rules over the whole program (ProgramAnalysis)
    parsing.py           reading code, including code that does not parse
    rules.py             what is looked for: the rule tables
    command_lines.py     what a shell command line does; programs that run programs unwrapped
    program_rules.py     what one program with its arguments does, rule by rule, in order
    wipe_rules.py        the rules for programs that delete or wipe
    protection_rules.py  the rules for programs that switch protection off
    commands.py          what shell command words and paths mean
This module is the analyzer's entry: AstAnalyzer, the adapter the suite calls.
"""

from __future__ import annotations

import ast

from mai_safety.application.errors import ConfigurationError
from mai_safety.domain.assessment import Finding, Submission
from mai_safety.domain.levels import Provenance, RiskLevel

from ..policy import AstPolicy, ThreatList
from ..sensitive_paths import SensitivePaths
from ..threat_hashes import file_digest, line_digests
from . import rules
from .parsing import parse_python, salvage, statement_lines, token_hits
from .program import ProgramAnalysis
from .state import Hit

__all__ = ["AstAnalyzer", "parse_python", "statement_lines"]


class AstAnalyzer:
    """Findings and a complexity measure for one submission; levels come from the policy."""

    name = "ast"

    def __init__(self, policy: AstPolicy, threats: ThreatList, paths: SensitivePaths | None = None) -> None:
        listed = sorted(rules.MODEL_LEVELLED & set(policy.rules))
        if listed:
            raise ConfigurationError(
                f"policy file {policy.source}: key ast.rules.{listed[0]}: this rule's levels come from the sensitive-path "
                "model (sensitive_paths.yaml, per path and operation): remove it here and set the levels there"
            )
        missing = sorted(set(rules.RULES) - set(policy.rules) - rules.MODEL_LEVELLED)
        if missing:
            raise ConfigurationError(
                f"policy file {policy.source}: key ast.rules: no level for {', '.join(missing)}: "
                "add each with a level (LOW, MEDIUM, HIGH or BLOCKED)"
            )
        unknown = sorted(set(policy.rules) - set(rules.RULES))
        if unknown:
            raise ConfigurationError(
                f"policy file {policy.source}: key ast.rules.{unknown[0]}: no such AST rule; "
                f"known rules are {', '.join(sorted(rules.RULES))}"
            )
        self._policy = policy
        self._threats = threats
        self._paths = paths

    def analyze(self, submission: Submission) -> list[Finding]:
        return self.analyze_and_measure(submission)[0]

    def analyze_and_measure(self, submission: Submission) -> tuple[list[Finding], dict[str, int]]:
        return self.analyze_within(submission, None)

    def analyze_within(self, submission: Submission, deadline: float | None) -> tuple[list[Finding], dict[str, int]]:
        """Findings and the complexity measure; past ``deadline`` (time.monotonic()), if one is given,
        the run stops with AnalysisOverran (suite.py runs this analysis on its caller's thread)."""
        code = submission.code
        hits: list[Hit] = self._threat_hits(code)
        analysis = ProgramAnalysis(self._threats, paths=self._paths)
        analysis.state.deadline = deadline
        tree: ast.Module | None = None
        broken: list[tuple[int, str]] = []
        try:
            tree = parse_python(code)
        except SyntaxError as exc:
            where = f"line {exc.lineno}" if exc.lineno else "somewhere"
            hits.append(Hit("parse-failed", exc.lineno or 0, max((exc.offset or 1) - 1, 0),
                            f"the code does not parse ({exc.msg} at {where}); only the readable parts were checked"))
        except (RecursionError, MemoryError) as exc:
            hits.append(Hit("too-complex", 0, 0, f"the code is nested too deeply for Python's parser ({type(exc).__name__}); "
                                                 "only the readable parts were checked"))
        except ValueError as exc:
            hits.append(Hit("parse-failed", 0, 0, f"the code cannot be parsed ({exc})"))
        if tree is None:
            tree, broken = salvage(code)
        try:
            analysis.run(tree)
        except RecursionError:
            hits.append(Hit("too-complex", 0, 0, "the code is nested too deeply to analyse completely"))
        hits.extend(analysis.state.hits)
        for first_line, chunk in broken:
            hits.extend(token_hits(chunk, self._threats, first_line, self._paths))
        complexity = {
            "lines": code.count("\n") + (0 if code.endswith("\n") else 1),
            **analysis.state.counts,
            "max_nesting_depth": analysis.state.max_block_depth,
            "max_expression_depth": analysis.state.max_expr_depth,
        }
        if broken:
            complexity["unparsed_lines"] = sum(chunk.count("\n") + 1 for _, chunk in broken)
        policy = self._policy
        if analysis.state.max_block_depth > policy.max_nesting_depth or analysis.state.max_expr_depth > policy.max_expression_depth:
            hits.append(Hit("too-complex", 0, 0, f"blocks nest {analysis.state.max_block_depth} deep and expressions "
                                                 f"{analysis.state.max_expr_depth} deep, beyond what is reviewed reliably"))
        longest = max(map(len, code.splitlines()), default=0)
        if complexity["lines"] > policy.max_lines or longest > policy.max_line_length:
            hits.append(Hit("too-complex", 0, 0, f"{complexity['lines']} lines, the longest {longest} characters: more than a "
                                                 f"person reviews (limits {policy.max_lines} lines, {policy.max_line_length} characters)"))
        return self._findings(hits, code, submission.provenance), complexity

    def acting_lines(self, code: str) -> set[int] | None:
        """The lines of the top-level statements of ``code`` that establish something beyond their
        names (AnalysisState.learned: a socket connected, a shell started, a file written, a finding,
        ...), for a session to keep in every later cell's context; None if the code does not parse
        (then every line counts)."""
        try:
            tree = parse_python(code)
        except (SyntaxError, RecursionError, MemoryError, ValueError):
            return None
        analysis = ProgramAnalysis(self._threats, paths=self._paths)
        analysis.acting = []
        try:
            analysis.run(tree)
        except RecursionError:
            return None
        lines: set[int] = set()
        for statement in analysis.acting:
            first, last = statement_lines(statement)
            lines.update(range(first, last + 1))
        return lines

    def _threat_hits(self, code: str) -> list[Hit]:
        hits = []
        threats = self._threats
        if threats.file_hashes:
            found = threats.file_hashes.get(file_digest(code))
            if found:
                hits.append(Hit("known-threat-hash", 1, 0, f"the whole program matches the known threat `{found.name}`"
                                + (f" ({found.reference})" if found.reference else "")))
        if threats.line_hashes:
            for number, digest in line_digests(code):
                found = threats.line_hashes.get(digest)
                if found:
                    hits.append(Hit("known-threat-hash", number, 0, f"this line matches the known threat `{found.name}`"
                                    + (f" ({found.reference})" if found.reference else "")))
        return hits

    def _level(self, found: Hit, provenance: Provenance) -> RiskLevel:
        if found.level is not None:
            return found.level
        return self._policy.rules[found.rule].for_provenance(provenance)

    def _findings(self, hits: list[Hit], code: str, provenance: Provenance) -> list[Finding]:
        lines = code.splitlines()
        seen: set[tuple[str, int]] = set()
        # A model-rated path operation adds nothing where another finding on its line is as high.
        best: dict[int, RiskLevel] = {}
        for found in hits:
            if found.rule not in rules.MODEL_LEVELLED:
                level = self._level(found, provenance)
                best[found.line] = max(best.get(found.line, RiskLevel.LOW), level)
        findings = []
        for found in sorted(hits, key=lambda h: -self._level(h, provenance).rank):
            key = (found.rule, found.line)
            if key in seen:
                continue
            seen.add(key)
            level = self._level(found, provenance)
            if found.rule in rules.MODEL_LEVELLED and best.get(found.line, RiskLevel.LOW) >= level:
                continue
            info = rules.RULES[found.rule]
            snippet = lines[found.line - 1].strip()[:200] if 0 < found.line <= len(lines) else ""
            findings.append(
                Finding(
                    analyzer=self.name,
                    rule_id=found.rule,
                    level=level,
                    message=f"{found.detail[:400]}; {info.advice}",
                    line=found.line,
                    column=found.column,
                    snippet=snippet,
                    severity=info.severity,
                    confidence=found.confidence,
                    cwe=info.cwe,
                )
            )
        return findings
