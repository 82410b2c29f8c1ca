import csv
from collections import defaultdict

table = defaultdict(lambda: defaultdict(int))
months = set()
with open("orders.csv") as f:
    for r in csv.DictReader(f):
        table[r["product"]][r["month"]] += int(r["qty"])
        months.add(r["month"])
months = sorted(months)
print("product".ljust(12) + "".join(m.rjust(8) for m in months))
for prod, row in sorted(table.items()):
    print(prod.ljust(12) + "".join(str(row[m]).rjust(8) for m in months))
