import copy
import yaml

def deep_merge(base, override):
    out = copy.deepcopy(base)
    for k, v in override.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = v
    return out

base = yaml.safe_load(open("conf/base.yaml"))
prod = yaml.safe_load(open("conf/prod.yaml"))
print(yaml.safe_dump(deep_merge(base, prod)))
