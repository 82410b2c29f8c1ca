import csv
from collections import defaultdict

totals = defaultdict(float)
with open("sales.csv", newline="") as f:
    for row in csv.DictReader(f):
        totals[row["region"]] += float(row["amount"])

for region, amt in sorted(totals.items(), key=lambda kv: -kv[1]):
    print(f"{region:<12}{amt:>12.2f}")
