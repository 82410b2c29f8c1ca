import sys
from pathlib import Path

src = Path(sys.argv[1])
chunk = int(sys.argv[2]) if len(sys.argv) > 2 else 10 * 1024 * 1024
with src.open("rb") as f:
    part = 0
    while data := f.read(chunk):
        out = src.with_name(f"{src.name}.part{part:03d}")
        out.write_bytes(data)
        part += 1
print(f"split into {part} parts")
