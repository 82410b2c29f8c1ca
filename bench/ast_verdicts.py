"""The AST analyzer's verdict on every program of tests/corpus, to show a refactoring changed nothing.

Every ``*.py`` under tests/corpus (every sub-folder, the blind sets too) is read by the AST analyzer
alone (policies/ as shipped, Mai's provenance) and its verdict written as JSON: per relative path, the
highest level, the rule ids sorted, every finding (rule, level, line, column, message) and the
complexity measure. Run it before a change and after, into two files outside the repository, and
compare them (--compare exits 1 and names the first programs that differ).

    .venv/bin/python bench/ast_verdicts.py --out /tmp/before.json
    .venv/bin/python bench/ast_verdicts.py --out /tmp/after.json --compare /tmp/before.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mai_safety.domain.assessment import Submission  # noqa: E402
from mai_safety.domain.errors import InvalidSubmission  # noqa: E402
from mai_safety.domain.levels import Provenance  # noqa: E402
from mai_safety.infrastructure.analysis.ast import AstAnalyzer  # noqa: E402
from mai_safety.infrastructure.analysis.policy import load_analysis_policy  # noqa: E402

CORPUS = ROOT / "tests" / "corpus"


def verdicts(corpus: Path = CORPUS) -> dict[str, Any]:
    policy = load_analysis_policy(ROOT / "policies")
    analyzer = AstAnalyzer(policy.ast, policy.threats, policy.paths)
    result: dict[str, Any] = {}
    for path in sorted(corpus.rglob("*.py")):
        try:
            submission = Submission.from_bytes(path.read_bytes(), Provenance.MAI, 1 << 24)
        except InvalidSubmission as exc:  # an empty __init__.py: not a program, recorded as refused
            result[str(path.relative_to(corpus))] = {"refused": str(exc)}
            continue
        findings, complexity = analyzer.analyze_and_measure(submission)
        result[str(path.relative_to(corpus))] = {
            "level": max((f.level for f in findings), default=None, key=lambda level: level.rank).value
            if findings else "NONE",
            "rules": sorted({f.rule_id for f in findings}),
            "findings": sorted([f.rule_id, f.level.value, f.line, f.column, f.message] for f in findings),
            "complexity": complexity,
        }
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--compare", type=Path)
    args = parser.parse_args()
    now = verdicts()
    args.out.write_text(json.dumps(now, indent=1, sort_keys=True))
    print(f"{len(now)} programs -> {args.out}")
    if args.compare:
        before = json.loads(args.compare.read_text())
        differ = sorted(name for name in before.keys() | now.keys() if before.get(name) != now.get(name))
        for name in differ[:20]:
            print(f"DIFFERS {name}\n  before {before.get(name)}\n  after  {now.get(name)}")
        print(f"{len(differ)} of {len(now)} differ")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
