import sys
import requests
from pathlib import Path

url = sys.argv[1]
out = Path(sys.argv[2] if len(sys.argv) > 2 else url.rsplit("/", 1)[-1])
with requests.get(url, stream=True, timeout=30) as r:
    r.raise_for_status()
    if not r.headers.get("Content-Type", "").startswith("image/"):
        raise SystemExit("not an image")
    with out.open("wb") as f:
        for chunk in r.iter_content(1 << 15):
            f.write(chunk)
print("saved", out)
