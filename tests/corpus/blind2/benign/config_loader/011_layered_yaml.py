import os
import yaml

def deep_merge(a, b):
    for k, v in b.items():
        if isinstance(v, dict) and isinstance(a.get(k), dict):
            deep_merge(a[k], v)
        else:
            a[k] = v
    return a

layers = ["config/base.yaml", f"config/{os.getenv('APP_ENV', 'dev')}.yaml"]
cfg = {}
for layer in layers:
    if os.path.exists(layer):
        with open(layer) as f:
            deep_merge(cfg, yaml.safe_load(f) or {})
print(cfg)
