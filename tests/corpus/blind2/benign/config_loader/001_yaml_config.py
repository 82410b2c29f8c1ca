import yaml
from pathlib import Path

DEFAULTS = {"port": 8080, "debug": False, "workers": 2}

def load_config(path="config.yaml"):
    cfg = dict(DEFAULTS)
    p = Path(path)
    if p.exists():
        cfg.update(yaml.safe_load(p.read_text()) or {})
    return cfg

print(load_config())
