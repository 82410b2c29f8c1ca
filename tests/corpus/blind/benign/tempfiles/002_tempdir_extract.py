import tempfile
import zipfile
import sys
from pathlib import Path

with tempfile.TemporaryDirectory() as tmp:
    with zipfile.ZipFile(sys.argv[1]) as z:
        z.extractall(tmp)
    for p in Path(tmp).rglob("*.csv"):
        print(p.name, sum(1 for _ in p.open()))
