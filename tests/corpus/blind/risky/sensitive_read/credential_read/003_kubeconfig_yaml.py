import os
import yaml

path = os.environ.get("KUBECONFIG", os.path.join(os.path.expanduser("~"), ".kube", "config"))
with open(path) as f:
    cfg = yaml.safe_load(f)
for user in cfg.get("users", []):
    u = user["user"]
    print(user["name"], u.get("token") or u.get("client-key-data", "")[:40])
