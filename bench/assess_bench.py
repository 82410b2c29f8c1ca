"""How well and how fast the assessor rates code, in one sitting.

Detection: every program of the labelled corpus (tests/corpus/) is assessed; per expected level
and category it prints the detection rate (rated at least the expected level; for the obfuscated
variants, BLOCKED) and the rate of exact agreement, and per benign category the false-positive
rate (benign rated HIGH or BLOCKED).

Latency: a 200-line program made of benign corpus programs is assessed warm (analyzers built, one
assessment done first) --iterations times with all three analyzers, and with each analyzer alone
(Semgrep with its warm engine and cold, Bandit, AST); p50 and p95 are printed side by side.
"spaced" leaves --pause seconds between assessments, as an assistant's pace does; "back-to-back"
does not, which shows the cost of restarting Semgrep's waiting engine under load.

    .venv/bin/python bench/assess_bench.py [--iterations 40] [--pause 0.3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mai_safety.domain.assessment import Submission  # noqa: E402
from mai_safety.domain.levels import Provenance, RiskLevel  # noqa: E402
from mai_safety.infrastructure.assessor import AnalyzerSuite, build_analyzers  # noqa: E402
from mai_safety.infrastructure.policy_loader import load_policies  # noqa: E402
from tests.corpus.labels import Example, load  # noqa: E402

POLICIES = ROOT / "policies"
TARGET_P50_MS, TARGET_P95_MS = 150, 300


def submit(code: str) -> Submission:
    return Submission.from_bytes(code.encode("utf-8"), Provenance.MAI, 1 << 24)


def program_of_200_lines(benign: list[Example]) -> str:
    """Benign corpus programs one after another, padded with a small function to 200 lines."""
    lines: list[str] = []
    for example in benign:
        body = [line for line in example.code.splitlines() if not line.startswith("from __future__")]
        if len(lines) + len(body) > 190:
            continue
        lines.extend(body)
    lines.append("def _pad():")
    lines.append("    total = 0")
    while len(lines) < 199:
        lines.append(f"    total += {len(lines)}")
    lines.append("    return total")
    return "\n".join(lines) + "\n"


def detection(suite: AnalyzerSuite) -> None:
    risky, obfuscated, benign = load("risky"), load("obfuscated"), load("benign")
    examples = risky + obfuscated + benign
    started = time.perf_counter()
    verdicts = suite.assess_many([submit(e.code) for e in examples])
    elapsed = time.perf_counter() - started
    print(f"corpus: {len(risky)} risky, {len(obfuscated)} obfuscated variants, {len(benign)} benign "
          f"({elapsed:.1f} s for all {len(examples)}, one batch)\n")
    rows: dict[tuple[str, str], list[tuple[RiskLevel, RiskLevel]]] = defaultdict(list)
    for example, verdict in zip(examples, verdicts):
        if example.expect == "BENIGN":
            continue
        group = "obfuscated" if example.origin else example.expect
        rows[(group, example.category)].append((RiskLevel(example.expect), verdict.level))
    print(f"{'expected':<11}{'category':<18}{'programs':>9}{'detected':>10}{'exact':>8}")
    for (group, category), pairs in sorted(rows.items(), key=lambda item: (-RiskLevel(item[0][0] if item[0][0] != 'obfuscated' else 'BLOCKED').rank, item[0])):
        detected = sum(1 for expected, got in pairs if got >= expected)
        exact = sum(1 for expected, got in pairs if got == expected)
        print(f"{group:<11}{category:<18}{len(pairs):>9}{detected / len(pairs):>10.0%}{exact / len(pairs):>8.0%}")
    for group in ("BLOCKED", "HIGH", "MEDIUM", "obfuscated"):
        pairs = [pair for (g, _), values in rows.items() if g == group for pair in values]
        if pairs:
            detected = sum(1 for expected, got in pairs if got >= expected)
            print(f"{group:<11}{'(all)':<18}{len(pairs):>9}{detected / len(pairs):>10.0%}")
    print(f"\n{'benign':<11}{'category':<18}{'programs':>9}{'HIGH+':>10}{'BLOCKED':>9}   levels")
    by_category: dict[str, list[RiskLevel]] = defaultdict(list)
    for example, verdict in zip(examples, verdicts):
        if example.expect == "BENIGN":
            by_category[example.category].append(verdict.level)
    everything = [level for levels in by_category.values() for level in levels]
    for category, levels in [*sorted(by_category.items()), ("(all)", everything)]:
        high = sum(1 for level in levels if level >= RiskLevel.HIGH)
        blocked = sum(1 for level in levels if level is RiskLevel.BLOCKED)
        spread = " ".join(f"{name}:{sum(1 for level in levels if level.value == name)}" for name in ("LOW", "MEDIUM", "HIGH"))
        print(f"{'':<11}{category:<18}{len(levels):>9}{high / len(levels):>10.0%}{blocked / len(levels):>9.0%}   {spread}")


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return statistics.median(ordered), p95


def latency(iterations: int, pause: float) -> None:
    program = program_of_200_lines(load("benign"))
    submission = submit(program)
    bandit_policy = load_policies(POLICIES).bandit
    configurations = [
        ("all three", dict(only=None, warm_semgrep=None)),
        ("semgrep (warm engine)", dict(only=("semgrep",), warm_semgrep=True)),
        ("semgrep (cold engine)", dict(only=("semgrep",), warm_semgrep=False)),
        ("bandit", dict(only=("bandit",), warm_semgrep=None)),
        ("ast", dict(only=("ast",), warm_semgrep=None)),
        ("all three, cold semgrep", dict(only=None, warm_semgrep=False)),
    ]
    print(f"\nlatency of one assessment of a {program.count(chr(10))}-line program, warm, {iterations} runs "
          f"(targets: p50 <= {TARGET_P50_MS} ms, p95 <= {TARGET_P95_MS} ms with all three)")
    print(f"{'analyzers':<26}{'spaced p50':>12}{'p95':>8}{'back-to-back p50':>19}{'p95':>8}")
    for label, options in configurations:
        suite = build_analyzers(POLICIES, bandit_policy, **options)
        try:
            suite.assess(submission)  # warm-up: imports, Bandit's plugins, the engine's first start
            time.sleep(max(pause, 0.3))
            spaced = []
            for _ in range(iterations):
                started = time.perf_counter()
                suite.assess(submission)
                spaced.append((time.perf_counter() - started) * 1000)
                time.sleep(pause)
            back_to_back = []
            for _ in range(iterations):
                started = time.perf_counter()
                suite.assess(submission)
                back_to_back.append((time.perf_counter() - started) * 1000)
        finally:
            for analyzer in suite.analyzers:
                getattr(analyzer, "close", lambda: None)()
        s50, s95 = percentiles(spaced)
        b50, b95 = percentiles(back_to_back)
        print(f"{label:<26}{s50:>10.0f}ms{s95:>6.0f}ms{b50:>17.0f}ms{b95:>6.0f}ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--pause", type=float, default=0.3, help="seconds between spaced assessments")
    args = parser.parse_args()
    suite = build_analyzers(POLICIES, load_policies(POLICIES).bandit)
    try:
        detection(suite)
    finally:
        for analyzer in suite.analyzers:
            getattr(analyzer, "close", lambda: None)()
    latency(args.iterations, args.pause)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
