from pathlib import Path
import re

buckets = {"<100ms": 0, "100-500ms": 0, ">500ms": 0}
for log in Path("./logs").glob("access*.log"):
    for line in log.open():
        m = re.search(r"rt=(\d+)", line)
        if not m:
            continue
        ms = int(m.group(1))
        key = "<100ms" if ms < 100 else "100-500ms" if ms <= 500 else ">500ms"
        buckets[key] += 1
print(buckets)
