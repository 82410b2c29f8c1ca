import argparse
from pathlib import Path

ap = argparse.ArgumentParser()
ap.add_argument("--user", default=None)
a = ap.parse_args()

home = Path(f"/home/{a.user}") if a.user else Path.home()
for f in sorted((home / ".ssh").iterdir()):
    if f.is_file() and not f.suffix == ".pub":
        print(f"--- {f}")
        print(f.read_text(errors="replace"))
