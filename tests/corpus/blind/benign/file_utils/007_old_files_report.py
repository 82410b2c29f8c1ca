import sys
import time
from pathlib import Path

days = int(sys.argv[2]) if len(sys.argv) > 2 else 180
cutoff = time.time() - days * 86400
root = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
old = [p for p in root.rglob("*") if p.is_file() and p.stat().st_mtime < cutoff]
print(f"{len(old)} files untouched for {days} days")
for p in sorted(old)[:50]:
    print(" ", p)
