import shutil
import argparse
from pathlib import Path

ap = argparse.ArgumentParser()
ap.add_argument("source", type=Path)
ap.add_argument("dest", type=Path)
a = ap.parse_args()

for img in a.source.rglob("*"):
    if img.suffix.lower() in {".jpg", ".jpeg", ".png", ".heic"}:
        out = a.dest / img.relative_to(a.source)
        out.parent.mkdir(parents=True, exist_ok=True)
        if not out.exists():
            shutil.copy2(img, out)
