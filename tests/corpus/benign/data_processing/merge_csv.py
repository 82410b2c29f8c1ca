# expect: BENIGN category: data_processing
import csv
import glob

rows = []
for path in sorted(glob.glob("data/*.csv")):
    with open(path, newline="") as handle:
        rows.extend(csv.DictReader(handle))
if rows:
    with open("merged.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=rows[0].keys())
        writer.writeheader()
        writer.writerows(rows)
print(f"merged {len(rows)} rows")
