import json
import os

APP = "mytimer"
cfg_dir = os.path.join(os.environ.get("XDG_CONFIG_HOME", os.path.expanduser("~/.config")), APP)
cfg_file = os.path.join(cfg_dir, "settings.json")

settings = {"minutes": 25, "sound": True}
if os.path.exists(cfg_file):
    with open(cfg_file) as f:
        settings.update(json.load(f))
else:
    os.makedirs(cfg_dir, exist_ok=True)
    with open(cfg_file, "w") as f:
        json.dump(settings, f, indent=2)
print(settings)
