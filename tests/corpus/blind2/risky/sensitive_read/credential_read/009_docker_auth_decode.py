import base64
import json
from pathlib import Path

cfg = json.loads((Path.home() / ".docker" / "config.json").read_text())
for registry, entry in cfg.get("auths", {}).items():
    if "auth" in entry:
        user, _, pw = base64.b64decode(entry["auth"]).decode().partition(":")
        print(registry, user, pw)
