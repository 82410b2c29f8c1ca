#!/usr/bin/env python3
"""Rename *.jpeg to *.jpg in the given directory (dry-run by default)."""
import sys
from pathlib import Path

folder = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
apply = "--apply" in sys.argv

for p in sorted(folder.glob("*.jpeg")):
    new = p.with_suffix(".jpg")
    print(f"{p.name} -> {new.name}")
    if apply:
        p.rename(new)
