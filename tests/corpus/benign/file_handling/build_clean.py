# expect: BENIGN category: file_handling
import shutil
from pathlib import Path

for folder in ("build", "dist", ".pytest_cache"):
    if Path(folder).is_dir():
        shutil.rmtree(folder)
for cache in Path(".").rglob("__pycache__"):
    shutil.rmtree(cache)
print("clean")
