import csv
import json
import sys

records = json.load(open(sys.argv[1]))
keys = sorted({k for r in records for k in r})
w = csv.DictWriter(sys.stdout, fieldnames=keys)
w.writeheader()
for r in records:
    w.writerow(r)
