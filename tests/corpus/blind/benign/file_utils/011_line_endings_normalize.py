import sys
from pathlib import Path

for name in sys.argv[1:]:
    p = Path(name)
    raw = p.read_bytes()
    fixed = raw.replace(b"\r\n", b"\n")
    if fixed != raw:
        p.write_bytes(fixed)
        print("normalized", p)
