import json
import os

base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
cfg_path = os.path.join(base, "weatherbar", "config.json")
try:
    with open(cfg_path) as fh:
        cfg = json.load(fh)
except FileNotFoundError:
    cfg = {"city": "Lisbon", "units": "metric"}
print(f"Weather for {cfg['city']} in {cfg['units']} units")
