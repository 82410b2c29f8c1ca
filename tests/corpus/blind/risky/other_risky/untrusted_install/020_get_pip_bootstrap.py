import subprocess
import sys
import urllib.request

script = urllib.request.urlopen("https://bootstrap.pypa.io/get-pip.py").read()
with open("get-pip.py", "wb") as fh:
    fh.write(script)
subprocess.run([sys.executable, "get-pip.py", "--user"])
subprocess.run([sys.executable, "-m", "pip", "install", "--user", "http://10.0.0.3:8000/sdk.tar.gz"])
