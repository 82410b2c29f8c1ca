import json
import sys

slow = []
with open(sys.argv[1]) as fh:
    for line in fh:
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if rec.get("duration_ms", 0) > 500:
            slow.append(rec)

slow.sort(key=lambda r: r["duration_ms"], reverse=True)
for r in slow[:20]:
    print(r["duration_ms"], r.get("path"), r.get("ts"))
