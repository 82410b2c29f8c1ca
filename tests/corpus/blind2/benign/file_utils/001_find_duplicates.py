import hashlib
import sys
from collections import defaultdict
from pathlib import Path

def digest(path, bufsize=1 << 16):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(bufsize):
            h.update(chunk)
    return h.hexdigest()

root = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
groups = defaultdict(list)
for p in root.rglob("*"):
    if p.is_file():
        groups[digest(p)].append(p)
for h, paths in groups.items():
    if len(paths) > 1:
        print(h[:12], *paths, sep="\n  ")
