import random
from collections import Counter

rolls = Counter(random.randint(1, 6) + random.randint(1, 6) for _ in range(10000))
for total in range(2, 13):
    bar = "#" * (rolls[total] // 50)
    print(f"{total:2d} {bar}")
