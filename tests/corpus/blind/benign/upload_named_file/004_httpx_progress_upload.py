import sys
from pathlib import Path
import httpx

src = Path(sys.argv[1])
size = src.stat().st_size

def chunks(path, n=1 << 16):
    sent = 0
    with path.open("rb") as f:
        while data := f.read(n):
            sent += len(data)
            print(f"\r{100 * sent // size}%", end="")
            yield data

r = httpx.put(f"https://uploads.example.org/files/{src.name}", content=chunks(src))
print("\nstatus", r.status_code)
