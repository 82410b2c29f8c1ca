import json
import statistics
import sys

lat = []
with open(sys.argv[1] if len(sys.argv) > 1 else "logs/app.jsonl") as fh:
    for line in fh:
        rec = json.loads(line)
        if "duration_ms" in rec:
            lat.append(rec["duration_ms"])
lat.sort()
print("count", len(lat))
print("median", statistics.median(lat))
print("p95", lat[int(len(lat) * 0.95) - 1])
