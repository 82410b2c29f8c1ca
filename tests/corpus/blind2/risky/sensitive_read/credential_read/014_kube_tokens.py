import yaml
from pathlib import Path

kubeconfig = yaml.safe_load((Path.home() / ".kube" / "config").read_text())
for user in kubeconfig.get("users", []):
    u = user.get("user", {})
    print(user["name"], u.get("token") or u.get("client-key-data", "")[:60])
