import csv
import sys

rows = list(csv.reader(open(sys.argv[1], newline="")))
header, body = rows[0], rows[1:]
widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
fmt = lambda r: "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |"
print(fmt(header))
print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
for r in body:
    print(fmt(r))
