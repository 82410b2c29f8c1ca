import csv
import glob

rows = []
for path in sorted(glob.glob("data/*.csv")):
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            r["source"] = path
            rows.append(r)

if rows:
    with open("merged.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
print(len(rows), "rows merged")
