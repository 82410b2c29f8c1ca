import random
from collections import Counter

values = [round(random.gauss(50, 10)) for _ in range(1000)]
buckets = Counter(v // 5 * 5 for v in values)
for b in sorted(buckets):
    print(f"{b:3d}-{b + 4:3d} {'*' * (buckets[b] // 5)}")
