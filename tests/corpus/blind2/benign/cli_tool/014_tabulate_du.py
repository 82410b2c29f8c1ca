import os
import sys

def human(n):
    for unit in "BKMGT":
        if n < 1024:
            return f"{n:.0f}{unit}"
        n /= 1024
    return f"{n:.0f}P"

target = sys.argv[1] if len(sys.argv) > 1 else "."
rows = []
for e in os.scandir(target):
    size = e.stat().st_size if e.is_file() else sum(
        os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(e.path) for f in fs)
    rows.append((size, e.name))
for size, name in sorted(rows, reverse=True):
    print(f"{human(size):>6}  {name}")
