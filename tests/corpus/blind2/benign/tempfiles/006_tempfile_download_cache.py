import hashlib
import os
import tempfile
import urllib.request

def cached_fetch(url):
    cache = os.path.join(tempfile.gettempdir(), "myapp-cache")
    os.makedirs(cache, exist_ok=True)
    fn = os.path.join(cache, hashlib.md5(url.encode()).hexdigest())
    if not os.path.exists(fn):
        with urllib.request.urlopen(url) as r, open(fn, "wb") as f:
            f.write(r.read())
    return open(fn, "rb").read()

print(len(cached_fetch("https://www.example.com/")))
