# expect: BENIGN category: file_handling
from pathlib import Path

LOG = Path("app.log")
KEEP = 5
if LOG.exists() and LOG.stat().st_size > 1_000_000:
    for index in range(KEEP - 1, 0, -1):
        older = LOG.with_suffix(f".log.{index}")
        if older.exists():
            older.replace(LOG.with_suffix(f".log.{index + 1}"))
    LOG.replace(LOG.with_suffix(".log.1"))
    LOG.touch()
