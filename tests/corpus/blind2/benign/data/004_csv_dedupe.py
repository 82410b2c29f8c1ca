import csv
import sys

src, dst = sys.argv[1], sys.argv[2]
seen = set()
with open(src, newline="") as fin, open(dst, "w", newline="") as fout:
    reader = csv.reader(fin)
    writer = csv.writer(fout)
    header = next(reader)
    writer.writerow(header)
    for row in reader:
        key = tuple(row)
        if key not in seen:
            seen.add(key)
            writer.writerow(row)
print(f"kept {len(seen)} unique rows")
