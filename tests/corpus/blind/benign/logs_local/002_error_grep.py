import argparse
import re

parser = argparse.ArgumentParser()
parser.add_argument("logfile")
parser.add_argument("--level", default="ERROR")
args = parser.parse_args()

pat = re.compile(rf"\b{re.escape(args.level)}\b")
with open(args.logfile, encoding="utf-8", errors="replace") as f:
    for no, line in enumerate(f, 1):
        if pat.search(line):
            print(f"{no}: {line.rstrip()}")
