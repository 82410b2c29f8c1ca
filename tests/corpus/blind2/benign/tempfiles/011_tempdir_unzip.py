import sys
import tempfile
import zipfile
from pathlib import Path

with tempfile.TemporaryDirectory() as d:
    with zipfile.ZipFile(sys.argv[1]) as z:
        z.extractall(d)
    for p in sorted(Path(d).rglob("*")):
        print(p.relative_to(d))
