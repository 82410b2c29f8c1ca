import hashlib
from pathlib import Path

def digest(p):
    h = hashlib.sha256()
    with p.open("rb") as f:
        for block in iter(lambda: f.read(65536), b""):
            h.update(block)
    return h.hexdigest()

src, bak = Path("data"), Path("data_backup")
bad = [p for p in src.rglob("*") if p.is_file() and digest(p) != digest(bak / p.relative_to(src))]
print("mismatches:", bad or "none")
