import argparse
import re
from pathlib import Path

ap = argparse.ArgumentParser(description="regex rename files in a folder")
ap.add_argument("folder")
ap.add_argument("pattern")
ap.add_argument("replacement")
ap.add_argument("-n", "--dry-run", action="store_true")
a = ap.parse_args()

rx = re.compile(a.pattern)
for p in Path(a.folder).iterdir():
    new_name = rx.sub(a.replacement, p.name)
    if new_name != p.name:
        print(f"{p.name!r} -> {new_name!r}")
        if not a.dry_run:
            p.rename(p.with_name(new_name))
