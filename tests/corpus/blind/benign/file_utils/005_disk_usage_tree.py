import os
import sys

def size_of(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(root, f))
            except OSError:
                pass
    return total

base = sys.argv[1] if len(sys.argv) > 1 else "."
sizes = [(size_of(os.path.join(base, d)), d) for d in os.listdir(base) if os.path.isdir(os.path.join(base, d))]
for s, d in sorted(sizes, reverse=True)[:15]:
    print(f"{s / 2**20:9.1f} MiB  {d}")
