import sys
import yaml

with open("conf/train.yaml") as f:
    cfg = yaml.safe_load(f)
for arg in sys.argv[1:]:
    key, _, val = arg.partition("=")
    node = cfg
    *parents, leaf = key.split(".")
    for p in parents:
        node = node.setdefault(p, {})
    node[leaf] = yaml.safe_load(val)
print(yaml.safe_dump(cfg))
