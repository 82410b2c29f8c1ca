import argparse
import sys

LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
ap = argparse.ArgumentParser()
ap.add_argument("file", nargs="?", type=argparse.FileType(), default=sys.stdin)
ap.add_argument("--min", choices=LEVELS, default="WARNING")
a = ap.parse_args()
keep = set(LEVELS[LEVELS.index(a.min):])
for line in a.file:
    if any(f" {lvl} " in line or f"[{lvl}]" in line for lvl in keep):
        sys.stdout.write(line)
