import collections
import pathlib
import sys

levels = collections.Counter()
log_dir = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path("logs")
for f in log_dir.rglob("*.log"):
    with f.open(errors="ignore") as fh:
        for line in fh:
            for lvl in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
                if f" {lvl} " in line:
                    levels[lvl] += 1
                    break
print(dict(levels))
