import sys
import requests

url = sys.argv[1] if len(sys.argv) > 1 else "https://www.python.org/ftp/python/3.12.0/Python-3.12.0.tgz"
fname = url.rsplit("/", 1)[-1]
with requests.get(url, stream=True, timeout=30) as r:
    r.raise_for_status()
    total = int(r.headers.get("content-length", 0))
    done = 0
    with open(fname, "wb") as f:
        for chunk in r.iter_content(1 << 16):
            f.write(chunk)
            done += len(chunk)
            if total:
                print(f"\r{done * 100 // total}%", end="")
print("\nsaved", fname)
