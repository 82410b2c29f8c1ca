# expect: BENIGN category: data_processing
import csv
from collections import defaultdict

table = defaultdict(lambda: defaultdict(int))
columns = set()
with open("survey.csv", newline="") as handle:
    for row in csv.DictReader(handle):
        table[row["team"]][row["answer"]] += 1
        columns.add(row["answer"])
header = sorted(columns)
print("team".ljust(12) + "".join(c.ljust(8) for c in header))
for team, counts in sorted(table.items()):
    print(team.ljust(12) + "".join(str(counts[c]).ljust(8) for c in header))
