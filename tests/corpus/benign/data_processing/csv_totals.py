# expect: BENIGN category: data_processing
import csv
from collections import defaultdict

totals = defaultdict(float)
with open("sales.csv", newline="") as handle:
    for row in csv.DictReader(handle):
        totals[row["region"]] += float(row["amount"])
for region, amount in sorted(totals.items()):
    print(f"{region:<12}{amount:>12.2f}")
