import shutil
from pathlib import Path

removed = 0
for cache in Path(".").rglob("__pycache__"):
    shutil.rmtree(cache)
    removed += 1
for pyc in Path(".").rglob("*.pyc"):
    pyc.unlink()
print(f"removed {removed} __pycache__ directories")
