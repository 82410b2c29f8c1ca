import json
from pathlib import Path

CONFIG_PATH = Path(__file__).with_name("config.json")
REQUIRED = ("api_base", "timeout")

def load():
    cfg = json.loads(CONFIG_PATH.read_text())
    missing = [k for k in REQUIRED if k not in cfg]
    if missing:
        raise KeyError(f"missing config keys: {missing}")
    cfg.setdefault("retries", 3)
    return cfg

if __name__ == "__main__":
    print(load())
