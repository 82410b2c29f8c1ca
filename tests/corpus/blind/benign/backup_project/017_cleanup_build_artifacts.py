import shutil
from pathlib import Path

root = Path(__file__).parent
for pattern in ("build", "dist", "*.egg-info", ".pytest_cache"):
    for p in root.glob(pattern):
        shutil.rmtree(p, ignore_errors=True)
        print("removed", p.relative_to(root))
for pyc in root.rglob("__pycache__"):
    shutil.rmtree(pyc)
