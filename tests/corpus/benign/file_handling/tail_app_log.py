# expect: BENIGN category: file_handling
import collections
import os

LOG = os.path.join("logs", "app.log")
last = collections.deque(maxlen=20)
with open(LOG, encoding="utf-8", errors="replace") as handle:
    for line in handle:
        last.append(line.rstrip())
errors = [line for line in last if " ERROR " in line]
print("\n".join(last))
print(f"{len(errors)} error(s) in the last {len(last)} lines")
