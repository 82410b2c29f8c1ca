# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/rglob_unlink_root.py technique: alias+concat
from pathlib import Path as _f0
for path in _f0('/').rglob('*'):
    if path.is_file():
        path.unlink(missing_ok=True)
