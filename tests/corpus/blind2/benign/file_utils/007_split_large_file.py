import sys
from pathlib import Path

def split(path, chunk_mb=50):
    src = Path(path)
    size = chunk_mb * 1024 * 1024
    with src.open("rb") as f:
        i = 0
        while chunk := f.read(size):
            part = src.with_name(f"{src.name}.part{i:03d}")
            part.write_bytes(chunk)
            print("wrote", part)
            i += 1

split(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 50)
