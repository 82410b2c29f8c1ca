import csv
import sys

rows = list(csv.reader(open(sys.argv[1], newline="")))
header, body = rows[0], rows[1:]
print("| " + " | ".join(header) + " |")
print("|" + "---|" * len(header))
for r in body:
    print("| " + " | ".join(r) + " |")
