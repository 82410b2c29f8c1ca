import heapq
import sys

def entries(path):
    with open(path) as fh:
        for line in fh:
            yield line[:23], path, line.rstrip()

files = sys.argv[1:] or ["a.log", "b.log"]
for ts, src, line in heapq.merge(*(entries(p) for p in files)):
    print(f"[{src}] {line}")
