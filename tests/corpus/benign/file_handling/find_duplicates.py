# expect: BENIGN category: file_handling
import hashlib
from collections import defaultdict
from pathlib import Path

by_hash = defaultdict(list)
for path in Path("library").rglob("*"):
    if path.is_file():
        by_hash[hashlib.sha256(path.read_bytes()).hexdigest()].append(path)
for digest, paths in by_hash.items():
    if len(paths) > 1:
        print(digest[:12], *paths)
