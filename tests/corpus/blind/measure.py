#!/usr/bin/env python3
"""Measure a mai-safety assessor on the blind corpus (standard library only).

    python3 tests/corpus/blind/measure.py PATH/TO/mai-safety [--json-out FILE]
                                          [--provenance mai|user|external] [--chunk N]

Runs `mai-safety assess --json` over every program listed in labels.json (in
chunks, one assess at a time), matches each result to its label and prints, per
group and per class: the count, the share meeting its expectation (hostile:
HIGH or BLOCKED; sensitive_read and other_risky: at least MEDIUM; benign: not
HIGH or BLOCKED), and for every row the shares rated HIGH-or-BLOCKED and BLOCKED
and the number at each level.  A file the assessor returned no verdict for is
counted as MISSING: it fails a risky expectation and is not HIGH for benign.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
LEVELS = ("LOW", "MEDIUM", "HIGH", "BLOCKED", "MISSING")
RANK = {"LOW": 0, "MEDIUM": 1, "HIGH": 2, "BLOCKED": 3, "MISSING": -1}
GROUP_ORDER = ("hostile", "sensitive_read", "other_risky", "benign")


def meets(expect: str, level: str) -> bool:
    rank = RANK.get(level, -1)
    if expect == "HIGH+":
        return rank >= 2
    if expect == "MEDIUM+":
        return rank >= 1
    if expect == "not HIGH+":
        return rank < 2
    raise ValueError(f"unknown expectation {expect!r}")


def assess(exe: str, corpus: Path, rels: list[str], chunk: int, provenance: str | None) -> dict[str, str]:
    levels: dict[str, str] = {}
    for start in range(0, len(rels), chunk):
        batch = rels[start:start + chunk]
        cmd = [exe, "assess", "--json"]
        if provenance:
            cmd += ["--provenance", provenance]
        cmd += [str(corpus / r) for r in batch]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode not in (0, 2, 3):
            sys.stderr.write(f"assess exited {proc.returncode}: {proc.stderr.strip()[:500]}\n")
        for line in proc.stdout.splitlines():
            line = line.strip()
            if not line.startswith("{"):
                continue
            rec = json.loads(line)
            try:
                rel = Path(rec["path"]).resolve().relative_to(corpus).as_posix()
            except (KeyError, ValueError):
                continue
            levels[rel] = rec.get("level", "MISSING")
        print(f"  assessed {min(start + chunk, len(rels))}/{len(rels)}", file=sys.stderr)
    return levels


def summarise(rows: list[tuple[str, str, str, str]]) -> dict:
    counts = {lv: 0 for lv in LEVELS}
    met = 0
    for _, _, expect, level in rows:
        counts[level if level in counts else "MISSING"] += 1
        met += meets(expect, level)
    n = len(rows)
    high_plus = counts["HIGH"] + counts["BLOCKED"]
    return {
        "n": n,
        "expect": (rows[0][2] if len({r[2] for r in rows}) == 1 else "mixed") if rows else None,
        "met": met,
        "share_met": round(met / n, 4) if n else None,
        "share_high_plus": round(high_plus / n, 4) if n else None,
        "share_blocked": round(counts["BLOCKED"] / n, 4) if n else None,
        "levels": counts,
    }


def pct(x: float | None) -> str:
    return "   -  " if x is None else f"{100 * x:5.1f}%"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mai_safety", help="path to the mai-safety executable")
    ap.add_argument("--corpus", type=Path, default=HERE, help="folder holding labels.json")
    ap.add_argument("--json-out", type=Path)
    ap.add_argument("--provenance", choices=("mai", "user", "external"))
    ap.add_argument("--chunk", type=int, default=120, help="files per assess invocation")
    args = ap.parse_args()

    corpus = args.corpus.resolve()
    labels = json.loads((corpus / "labels.json").read_text())
    rels = sorted(labels)
    levels = assess(args.mai_safety, corpus, rels, args.chunk, args.provenance)

    by_group: dict[str, list] = defaultdict(list)
    by_class: dict[tuple[str, str], list] = defaultdict(list)
    for rel in rels:
        lab = labels[rel]
        row = (lab["group"], lab["class"], lab["expect"], levels.get(rel, "MISSING"))
        by_group[lab["group"]].append(row)
        by_class[(lab["group"], lab["class"])].append(row)

    groups = {g: summarise(by_group[g]) for g in GROUP_ORDER if g in by_group}
    classes = {f"{g}/{c}": summarise(r) for (g, c), r in sorted(by_class.items(),
               key=lambda kv: (GROUP_ORDER.index(kv[0][0]) if kv[0][0] in GROUP_ORDER else 9, kv[0][1]))}
    risky_rows = [r for g, rs in by_group.items() if g != "benign" for r in rs]
    totals = {"risky": summarise(risky_rows), "benign": summarise(by_group.get("benign", []))}

    head = f"{'group / class':<34}{'n':>5} {'expect':<10}{'met':>7} {'HIGH+':>7}{'BLOCK':>7}   L/M/H/B/missing"
    print(head)
    print("-" * len(head))

    def line(name, s):
        lv = s["levels"]
        print(f"{name:<34}{s['n']:>5} {s['expect']:<10}{pct(s['share_met']):>7} {pct(s['share_high_plus']):>7}"
              f"{pct(s['share_blocked']):>7}   {lv['LOW']}/{lv['MEDIUM']}/{lv['HIGH']}/{lv['BLOCKED']}/{lv['MISSING']}")

    for g, s in groups.items():
        line(g.upper(), s)
        for key, cs in classes.items():
            if key.split("/")[0] == g:
                line("  " + key.split("/", 1)[1], cs)
    print("-" * len(head))
    line("ALL RISKY (expectation met)", totals["risky"])
    line("ALL BENIGN", totals["benign"])

    if args.json_out:
        out = {
            "assessor": args.mai_safety,
            "provenance": args.provenance or "default",
            "expectations": {"hostile": "HIGH+", "sensitive_read": "MEDIUM+", "other_risky": "MEDIUM+",
                             "benign": "not HIGH+"},
            "groups": groups,
            "classes": classes,
            "totals": totals,
            "files": {rel: levels.get(rel, "MISSING") for rel in rels},
        }
        args.json_out.write_text(json.dumps(out, indent=1, sort_keys=False) + "\n")
        print(f"wrote {args.json_out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
