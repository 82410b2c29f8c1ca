import shutil
import tempfile
from pathlib import Path

work = Path(tempfile.mkdtemp(prefix="build-"))
try:
    for i in range(3):
        (work / f"part{i}.txt").write_text(f"part {i}\n")
    merged = "".join(p.read_text() for p in sorted(work.glob("part*.txt")))
    print(merged)
finally:
    shutil.rmtree(work)
