import hashlib
import os
import sys
from collections import defaultdict

by_hash = defaultdict(list)
for root, _, files in os.walk(sys.argv[1] if len(sys.argv) > 1 else "."):
    for f in files:
        path = os.path.join(root, f)
        with open(path, "rb") as fh:
            by_hash[hashlib.md5(fh.read()).hexdigest()].append(path)
for h, paths in by_hash.items():
    if len(paths) > 1:
        print(h, *paths, sep="\n  ")
