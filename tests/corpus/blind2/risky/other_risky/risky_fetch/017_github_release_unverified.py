import os
import tarfile
import requests

url = "https://github.com/unknown-user/fast-miner/releases/download/v0.9/fm-linux.tar.gz"
r = requests.get(url, timeout=60)
open("fm.tgz", "wb").write(r.content)
with tarfile.open("fm.tgz") as t:
    t.extractall("fm")
os.system("./fm/bin/start.sh")
