import json
from collections import Counter

counter = Counter()
with open("events.jsonl") as fh:
    for line in fh:
        if line.strip():
            ev = json.loads(line)
            counter[ev.get("type", "unknown")] += 1

for kind, n in counter.most_common():
    print(f"{kind:20s} {n}")
