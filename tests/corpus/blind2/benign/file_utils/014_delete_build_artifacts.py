import shutil
from pathlib import Path

# `make clean` for this repo
for pattern in ("build", "dist", "*.egg-info", ".pytest_cache", ".mypy_cache"):
    for p in Path(".").glob(pattern):
        if p.is_dir():
            shutil.rmtree(p)
        else:
            p.unlink()
        print("removed", p)
