# expect: BLOCKED category: destructive_wipe
# Unlinks every file under / with pathlib.
from pathlib import Path

for path in Path("/").rglob("*"):
    if path.is_file():
        path.unlink(missing_ok=True)
