import csv
from collections import defaultdict

totals = defaultdict(float)
with open("sales.csv", newline="") as fh:
    for row in csv.DictReader(fh):
        totals[row["region"]] += float(row["amount"])

for region, amount in sorted(totals.items(), key=lambda kv: -kv[1]):
    print(f"{region:<12} {amount:>12,.2f}")
