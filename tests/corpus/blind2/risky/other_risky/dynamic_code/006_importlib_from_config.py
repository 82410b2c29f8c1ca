import importlib
import json

with open("plugins.json") as f:
    spec = json.load(f)
for entry in spec["plugins"]:
    mod = importlib.import_module(entry["module"])
    func = getattr(mod, entry["callable"])
    func(*entry.get("args", []))
