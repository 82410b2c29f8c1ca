import json
from pathlib import Path

SEARCH = [Path.cwd() / ".myapprc.json", Path.home() / ".config" / "myapp" / "config.json"]

def find_config():
    for p in SEARCH:
        if p.is_file():
            return p, json.loads(p.read_text())
    return None, {}

path, conf = find_config()
print("using", path or "built-in defaults")
print(conf)
