# expect: BENIGN category: system_info
import os
from concurrent.futures import ThreadPoolExecutor


def square(n):
    return n * n


workers = min(8, os.cpu_count() or 1)
with ThreadPoolExecutor(max_workers=workers) as pool:
    print(sum(pool.map(square, range(1000))))
