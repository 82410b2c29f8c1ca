import os

app_dir = os.path.expanduser("~/.local/share/myapp")
kube = os.path.abspath(os.path.join(app_dir, "..", "..", "..", ".kube", "config"))
with open(kube) as f:
    print(f.read())
