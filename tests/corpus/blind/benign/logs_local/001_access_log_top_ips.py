import sys
from collections import Counter

path = sys.argv[1] if len(sys.argv) > 1 else "access.log"
counts = Counter()
with open(path) as fh:
    for line in fh:
        counts[line.split(" ", 1)[0]] += 1

for ip, n in counts.most_common(10):
    print(f"{n:>7}  {ip}")
