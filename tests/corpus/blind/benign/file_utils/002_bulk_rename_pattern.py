import argparse
import re
from pathlib import Path

ap = argparse.ArgumentParser()
ap.add_argument("folder", type=Path)
ap.add_argument("pattern")
ap.add_argument("replacement")
ap.add_argument("--dry-run", action="store_true")
a = ap.parse_args()
for p in sorted(a.folder.iterdir()):
    new = re.sub(a.pattern, a.replacement, p.name)
    if new != p.name:
        print(f"{p.name} -> {new}")
        if not a.dry_run:
            p.rename(p.with_name(new))
