"""How well and how fast the assessor rates code, in one sitting.

Detection: every program of the labelled corpus (tests/corpus/) is assessed; per expected level
and category it prints the detection rate (rated at least the expected level; for the obfuscated
variants, BLOCKED) and the rate of exact agreement, and per benign category the false-positive
rate (benign rated HIGH or BLOCKED). The categories are then summed into the groups of issue #13
with its goals: hostile actions (expected HIGH or BLOCKED: at least HIGH), reads and the other
risky code (expected MEDIUM: at least MEDIUM), benign (HIGH+ at most 3%, BLOCKED at most 0.5%).

The blind set (tests/corpus/blind/, written by someone who had not read the rules) is measured
too when its labels.json is there: relative path -> {group, class, expect}, expect being
"HIGH+", "MEDIUM+" or "not HIGH+". Per group and class it prints the detection rate (or, for
"not HIGH+", the rates of HIGH+ and BLOCKED), with the first measurement of the old rules
(baseline-6441331.json) beside it. The bench reads the set's labels and the programs' text only
to assess them; it prints figures, never the programs.

Latency: a program of 50 lines and one of 200 (--lines), made of benign corpus programs, is assessed warm (analyzers built, one
assessment done first) --iterations times with all three analyzers, and with each analyzer alone
(Semgrep with its warm engine and cold, Bandit, AST), and as before decisions 0057 (Bandit
in-process) and 0059 (the AST analysis on a thread of its own); p50 and p95 are printed side by side.
"spaced" leaves --pause seconds between assessments, as an assistant's pace does; "back-to-back"
does not, which shows the cost of restarting Semgrep's waiting engine under load. The corpus
batch's time per file is printed with the detection figures (--batch-repeats runs, median).

    .venv/bin/python bench/assess_bench.py [--iterations 40] [--pause 0.3] [--only corpus,blind,latency]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mai_safety.domain.assessment import Submission  # noqa: E402
from mai_safety.domain.errors import InvalidSubmission  # noqa: E402
from mai_safety.domain.levels import Provenance, RiskLevel  # noqa: E402
from mai_safety.infrastructure.analysis import AnalyzerSuite, build_analyzers  # noqa: E402
from mai_safety.infrastructure.analysis.policy import load_analysis_policy  # noqa: E402
from mai_safety.infrastructure.policies import load_policies  # noqa: E402
from tests.corpus.labels import Example, load  # noqa: E402

POLICIES = ROOT / "policies"
BLIND = ROOT / "tests" / "corpus" / "blind"
#: The blind sets by name: "blind" and "blind2" were tuned on (training data now); "blind3" (programs
#: written to hide their act, and benign dynamic Python) is the fresh one (issue #28).
BLIND_SETS = {name: ROOT / "tests" / "corpus" / name for name in ("blind2", "blind3", "blind4")} | {"blind": BLIND}
TARGET_P50_MS, TARGET_P95_MS = 150, 300
GOAL_DETECTED, GOAL_BENIGN_HIGH, GOAL_BENIGN_BLOCKED = 0.90, 0.03, 0.005


#: The level a blind program gets when the submission itself is refused (it never reaches a run).
REFUSED = "REFUSED"


def submit(code: str) -> Submission:
    return Submission.from_bytes(code.encode("utf-8"), Provenance.MAI, 1 << 24)


def program_of_lines(benign: list[Example], count: int = 200) -> str:
    """Benign corpus programs one after another, padded with a small function to ``count`` lines."""
    lines: list[str] = []
    for example in benign:
        body = [line for line in example.code.splitlines() if not line.startswith("from __future__")]
        if len(lines) + len(body) > count - 10:
            continue
        lines.extend(body)
    lines.append("def _pad():")
    lines.append("    total = 0")
    while len(lines) < count - 1:
        lines.append(f"    total += {len(lines)}")
    lines.append("    return total")
    return "\n".join(lines) + "\n"


def detection(suite: AnalyzerSuite, batch_repeats: int = 3) -> None:
    risky, obfuscated, benign = load("risky"), load("obfuscated"), load("benign")
    examples = risky + obfuscated + benign
    submissions = [submit(e.code) for e in examples]
    times = []
    for _ in range(max(1, batch_repeats)):
        started = time.perf_counter()
        verdicts = suite.assess_many(submissions)
        times.append(time.perf_counter() - started)
    elapsed = statistics.median(times)
    print(f"corpus: {len(risky)} risky, {len(obfuscated)} obfuscated variants, {len(benign)} benign "
          f"({elapsed:.1f} s for all {len(examples)} in one batch, {elapsed * 1000 / len(examples):.1f} ms per file, "
          f"median of {len(times)})\n")
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
    print("\nthe groups of issue #13 on tests/corpus (goals: detected >= 90%, benign HIGH+ <= 3%, BLOCKED <= 0.5%)")
    hostile = [got >= RiskLevel.HIGH for e, v in zip(examples, verdicts) if e.expect in ("HIGH", "BLOCKED") for got in [v.level]]
    medium = [v.level >= RiskLevel.MEDIUM for e, v in zip(examples, verdicts) if e.expect == "MEDIUM"]
    print(f"  hostile (expected HIGH or BLOCKED) rated HIGH+   {_rate(hostile)}")
    print(f"  reads and other risky (expected MEDIUM) MEDIUM+  {_rate(medium)}")
    print(f"  benign rated HIGH+ {_rate([lv >= RiskLevel.HIGH for lv in everything])}, "
          f"BLOCKED {_rate([lv is RiskLevel.BLOCKED for lv in everything])}")


def _rate(flags: list[bool]) -> str:
    return f"{sum(flags) / len(flags):6.1%} of {len(flags):>4}" if flags else "     - of    0"


# --- the blind set ---------------------------------------------------------------------------------

_EXPECTATIONS = ("HIGH+", "MEDIUM+", "not HIGH+")


def blind_detection(suite: AnalyzerSuite, folder: Path = BLIND) -> dict[str, Any] | None:
    """Figures on the blind set, printed per group and class with the baseline beside them; None
    (and a line saying so) when the set has no labels.json yet."""
    labels_path = folder / "labels.json"
    if not labels_path.is_file():
        print(f"\nblind set: {labels_path.relative_to(ROOT)} is not there (yet): nothing measured")
        return None
    labels: dict[str, dict[str, str]] = json.loads(labels_path.read_text(encoding="utf-8"))
    names = sorted(labels)
    bad = [name for name in names if labels[name].get("expect") not in _EXPECTATIONS]
    if bad:
        raise SystemExit(f"{labels_path}: {bad[0]}: expect must be one of {', '.join(_EXPECTATIONS)}")
    submissions, unreadable, refused = [], [], []
    for name in names:
        try:
            submissions.append(submit((folder / name).read_text(encoding="utf-8")))
        except InvalidSubmission as exc:  # refused at every door: nothing of it would run
            refused.append(name)
            submissions.append(None)
            print(f"  {name}: refused before assessment ({exc})")
        except (OSError, UnicodeDecodeError, ValueError) as exc:  # counted, never silently dropped
            unreadable.append(name)
            submissions.append(None)
            print(f"  {name}: cannot be assessed ({type(exc).__name__})")
    readable = [s for s in submissions if s is not None]
    started = time.perf_counter()
    verdicts_iter = iter(suite.assess_many(readable))
    elapsed = time.perf_counter() - started
    levels = {name: (next(verdicts_iter).level.value if submission is not None
                     else REFUSED if name in refused else "UNREADABLE")
              for name, submission in zip(names, submissions)}
    baseline = _baseline_levels(folder, labels)
    baseline_name = next((path.name for path in sorted(folder.glob("baseline-*.json"))), "")
    figures = _blind_figures(labels, levels)
    old = _blind_figures(labels, baseline) if baseline else {}
    risky = sum(1 for name in names if labels[name]["expect"] != "not HIGH+")
    print(f"\nblind set {folder.name}: {len(names)} programs ({risky} risky, {len(names) - risky} benign), {elapsed:.1f} s in one batch"
          + (f", first measurement beside ({baseline_name})" if baseline else ", no per-program baseline found"))
    print(f"{'group':<16}{'class':<28}{'expect':<11}{'programs':>8}{'now':>14}{'baseline':>14}   (benign: HIGH+/BLOCKED)")
    for key, row in sorted(figures.items(), key=lambda item: (item[1]["order"], item[0])):
        before = old.get(key)
        print(f"{key[0]:<16}{key[1]:<28}{row['expect']:<11}{row['n']:>8}{_cell(row):>14}{_cell(before) if before else '-':>14}")
    return {"levels": levels, "figures": {" / ".join(k): v for k, v in figures.items()}}


def _blind_figures(labels: dict[str, dict[str, str]], levels: dict[str, str]) -> dict[tuple[str, str], dict[str, Any]]:
    rows: dict[tuple[str, str], dict[str, Any]] = {}

    def add(key: tuple[str, str], expect: str, level: str, order: int) -> None:
        row = rows.setdefault(key, {"expect": expect, "n": 0, "hit": 0, "blocked": 0, "order": order})
        row["n"] += 1
        # a submission refused at the door (a coding line, say) is held as BLOCKED code is: nothing runs
        rank = RiskLevel.BLOCKED.rank if level == REFUSED else RiskLevel(level).rank if level in RiskLevel.__members__ else -1
        if expect == "HIGH+":
            row["hit"] += rank >= RiskLevel.HIGH.rank
        elif expect == "MEDIUM+":
            row["hit"] += rank >= RiskLevel.MEDIUM.rank
        else:  # a false positive is a benign program rated HIGH+ (rank -1: not assessed, not counted)
            row["hit"] += rank >= RiskLevel.HIGH.rank
            row["blocked"] += rank == RiskLevel.BLOCKED.rank
        if expect != "mixed" and row["expect"] != expect:
            row["expect"] = "mixed"

    for name, label in labels.items():
        if name not in levels:
            continue
        expect, group, klass = label["expect"], label.get("group", "?"), label.get("class", "?")
        order = _EXPECTATIONS.index(expect)
        add((group, klass), expect, levels[name], order)
        add((group, "(all)"), expect, levels[name], order)
        add(("(all)", f"expect {expect}"), expect, levels[name], 3 + order)
    return rows


def _cell(row: dict[str, Any] | None) -> str:
    if not row or not row["n"]:
        return "-"
    if row["expect"] == "not HIGH+":
        return f"{row['hit'] / row['n']:.1%}/{row['blocked'] / row['n']:.1%}"
    return f"{row['hit'] / row['n']:.0%}"


def _baseline_levels(folder: Path, labels: dict[str, dict[str, str]]) -> dict[str, str]:
    """Each program's level in the first measurement (baseline-6441331.json), wherever in that
    file a mapping from the labels' paths to a level (or to an object with a ``level``) is."""
    candidates = sorted(folder.glob("baseline-*.json"))
    if not candidates:
        return {}
    try:
        document = json.loads(candidates[0].read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    found: dict[str, str] = {}

    def level_of(value: Any) -> str | None:
        if isinstance(value, str) and value in RiskLevel.__members__:
            return value
        if isinstance(value, dict):
            for key in ("level", "verdict", "assessed", "got"):
                if isinstance(value.get(key), str) and value[key] in RiskLevel.__members__:
                    return value[key]
        return None

    def visit(value: Any, depth: int = 0) -> None:
        if depth > 6:
            return
        if isinstance(value, dict):
            for key, item in value.items():
                if key in labels and level_of(item):
                    found[key] = level_of(item)  # type: ignore[assignment]
                else:
                    visit(item, depth + 1)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, dict):
                    path = next((item[k] for k in ("path", "file", "name", "program") if isinstance(item.get(k), str)), None)
                    if path in labels and level_of(item):
                        found[path] = level_of(item)  # type: ignore[assignment]
                        continue
                visit(item, depth + 1)

    visit(document)
    return found


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return statistics.median(ordered), p95


def _busy(steps: int) -> float:
    started = time.perf_counter()
    total = 0
    for step in range(steps):
        total += step
    return time.perf_counter() - started


def cores_at_work(processes: int = 3, steps: int = 2_000_000) -> None:
    """How much work this machine does with ``processes`` busy processes at once, in units of one
    alone: the analyzers are three processes computing at once (Semgrep's engine, Bandit's, ours)."""
    import multiprocessing

    with multiprocessing.Pool(processes) as pool:
        pool.map(_busy, [1000] * processes)  # the workers are up before anything is timed
        alone = min(pool.apply(_busy, (steps,)) for _ in range(3))
        started = time.perf_counter()
        pool.map(_busy, [steps] * processes, chunksize=1)
        together = time.perf_counter() - started
    print(f"\nthis machine: {processes} busy processes at once do {processes * alone / together:.2f} times the work of one "
          f"({alone * 1000:.0f} ms of work each: {together * 1000:.0f} ms together)")


def _until_bandit_is_ready(suite: Any, timeout_s: float = 30.0) -> None:
    """Wait for Bandit's own process, where the suite has one (bandit_process.py), to take code:
    until then it reads in-process, which is not what the row measures."""
    started = time.monotonic()
    for analyzer in suite.analyzers:
        while hasattr(analyzer, "own_process") and not analyzer.own_process:
            if time.monotonic() - started > timeout_s:
                raise SystemExit(f"Bandit's own process was not ready within {timeout_s:g} s: {analyzer.disabled_reason}")
            time.sleep(0.05)


class _OnAThread:
    """The AST analysis without its own bound (suite.SelfBoundingAnalyzer), so the suite runs it on a
    thread of its own, as before decision 0059."""

    def __init__(self, analyzer: Any) -> None:
        self.name = analyzer.name
        self._analyzer = analyzer

    def analyze_and_measure(self, submission: Submission) -> Any:
        return self._analyzer.analyze_and_measure(submission)


def latency(iterations: int, pause: float, lines: int = 200) -> None:
    program = program_of_lines(load("benign"), lines)
    submission = submit(program)
    bandit_policy = load_policies(POLICIES).bandit
    configurations = [
        ("all three", dict(only=None, warm_semgrep=None)),
        # What a one-shot command does, and what the service did before bandit_process.py.
        ("all three, Bandit in-process", dict(only=None, warm_semgrep=None, bandit_process=False)),
        # Two of the three at once: how far three processes computing on two cores are from two.
        ("semgrep and ast, no bandit", dict(only=("semgrep", "ast"), warm_semgrep=None)),
        ("semgrep (warm engine)", dict(only=("semgrep",), warm_semgrep=True)),
        ("semgrep (cold engine)", dict(only=("semgrep",), warm_semgrep=False)),
        ("bandit", dict(only=("bandit",), warm_semgrep=None)),
        ("ast", dict(only=("ast",), warm_semgrep=None)),
        ("all three, cold semgrep", dict(only=None, warm_semgrep=False)),
        # The service's case for code it has seen: the verdict kept by the code's hash (analysis/cache.py).
        ("all three, verdict kept", dict(only=None, warm_semgrep=None, cache_entries=1024)),
    ]
    print(f"\nlatency of one assessment of a {program.count(chr(10))}-line program, warm, {iterations} runs "
          f"(targets: p50 <= {TARGET_P50_MS} ms, p95 <= {TARGET_P95_MS} ms with all three)")
    print(f"{'analyzers':<30}{'spaced p50':>12}{'p95':>8}{'back-to-back p50':>19}{'p95':>8}")
    for label, options in configurations:
        # Each assessment is the analyzers' real work, unless the row says the verdict is kept.
        suite = build_analyzers(POLICIES, bandit_policy, **{"cache_entries": 0, **options})
        try:
            _until_bandit_is_ready(suite)
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
        print(f"{label:<30}{s50:>10.0f}ms{s95:>6.0f}ms{b50:>17.0f}ms{b95:>6.0f}ms")
    interleaved(submission, bandit_policy, iterations, pause)


def interleaved(submission: Submission, bandit_policy: Any, iterations: int, pause: float) -> None:
    """All three analyzers as shipped against the AST analysis on a thread of its own (before decision
    0059), one assessment each in turn, so that both see the same moments of the machine."""
    shipped = build_analyzers(POLICIES, bandit_policy, cache_entries=0)
    before = build_analyzers(POLICIES, bandit_policy, cache_entries=0)
    before = AnalyzerSuite([_OnAThread(each) if each.name == "ast" else each for each in before.analyzers],
                           RiskLevel.MEDIUM, deadline_s=load_analysis_policy(POLICIES).deadline_s)
    times: dict[str, list[float]] = {"as shipped": [], "AST on a thread": []}
    try:
        for suite in (shipped, before):
            _until_bandit_is_ready(suite)
            suite.assess(submission)
        time.sleep(max(pause, 0.3))
        for _ in range(iterations):
            for label, suite in (("as shipped", shipped), ("AST on a thread", before)):
                started = time.perf_counter()
                suite.assess(submission)
                times[label].append((time.perf_counter() - started) * 1000)
                time.sleep(pause)
    finally:
        for suite in (shipped, before):
            for analyzer in suite.analyzers:
                getattr(analyzer, "close", lambda: None)()
    print(f"\nall three, interleaved, spaced {pause:g} s, {iterations} runs each (decision 0059)")
    shipped_p50 = percentiles(times["as shipped"])[0]
    for label, samples in times.items():
        p50, p95 = percentiles(samples)
        print(f"  {label:<28}{p50:>10.0f}ms{p95:>6.0f}ms   x{p50 / shipped_p50:.2f} of as shipped")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--pause", type=float, default=0.3, help="seconds between spaced assessments")
    parser.add_argument("--lines", default="50,200", help="comma-separated sizes of the latency's program, in lines")
    parser.add_argument("--batch-repeats", type=int, default=3, help="times the corpus batch is assessed (median time)")
    parser.add_argument("--only", default="corpus,blind,blind2,blind3,blind4,latency", help="comma-separated: corpus, blind, blind2, blind3, blind4, latency")
    parser.add_argument("--blind-json", type=Path, help="also write each blind set's levels and figures to this file (NAME replaced by the set's name)")
    args = parser.parse_args()
    parts = {part.strip() for part in args.only.split(",")}
    if parts & {"corpus", *BLIND_SETS}:
        suite = build_analyzers(POLICIES, load_policies(POLICIES).bandit)
        try:
            if "corpus" in parts:
                detection(suite, args.batch_repeats)
            for name, folder in BLIND_SETS.items():
                if name not in parts:
                    continue
                result = blind_detection(suite, folder)
                if result is not None and args.blind_json:
                    target = Path(str(args.blind_json).replace("NAME", name))
                    target.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        finally:
            for analyzer in suite.analyzers:
                getattr(analyzer, "close", lambda: None)()
    if "latency" in parts:
        cores_at_work()
        for lines in (int(count) for count in args.lines.split(",")):
            latency(args.iterations, args.pause, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
