import argparse
import csv
import sys

p = argparse.ArgumentParser(description="show the first rows of a CSV nicely")
p.add_argument("csvfile", type=argparse.FileType("r"), default=sys.stdin, nargs="?")
p.add_argument("-n", type=int, default=5)
a = p.parse_args()
rows = [r for _, r in zip(range(a.n + 1), csv.reader(a.csvfile))]
widths = [max(len(r[i]) for r in rows if i < len(r)) for i in range(len(rows[0]))]
for r in rows:
    print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
