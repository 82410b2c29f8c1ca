import os
import shutil
from datetime import datetime
from pathlib import Path

src = Path("data")
snap_root = Path("backups/snapshots")
snap = snap_root / datetime.now().strftime("%Y-%m-%dT%H%M")
prev = max(snap_root.glob("*"), default=None) if snap_root.exists() else None
for f in src.rglob("*"):
    if f.is_file():
        rel = f.relative_to(src)
        dst = snap / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        old = prev / rel if prev else None
        if old and old.exists() and old.stat().st_mtime == f.stat().st_mtime:
            os.link(old, dst)
        else:
            shutil.copy2(f, dst)
print("snapshot", snap)
