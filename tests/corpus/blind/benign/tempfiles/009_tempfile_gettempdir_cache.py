import hashlib
import json
import os
import tempfile

CACHE = os.path.join(tempfile.gettempdir(), "myapp-cache")
os.makedirs(CACHE, exist_ok=True)

def cached(key, compute):
    fn = os.path.join(CACHE, hashlib.md5(key.encode()).hexdigest() + ".json")
    if os.path.exists(fn):
        with open(fn) as f:
            return json.load(f)
    value = compute()
    with open(fn, "w") as f:
        json.dump(value, f)
    return value

print(cached("squares", lambda: [i * i for i in range(10)]))
