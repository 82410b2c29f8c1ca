import sys
from collections import defaultdict
from datetime import datetime

per_min = defaultdict(int)
with open(sys.argv[1]) as f:
    for line in f:
        try:
            stamp = line.split("[", 1)[1].split("]", 1)[0]
            t = datetime.strptime(stamp, "%d/%b/%Y:%H:%M:%S %z")
        except (IndexError, ValueError):
            continue
        per_min[t.strftime("%H:%M")] += 1

peak = max(per_min.items(), key=lambda kv: kv[1])
print("peak minute:", peak)
