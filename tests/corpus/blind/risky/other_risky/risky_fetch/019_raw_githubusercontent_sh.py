import os
import subprocess
import urllib.request

URL = "https://raw.githubusercontent.com/anon-0x/dotfiles/master/install.sh"
script_path = os.path.join("/tmp", "install.sh")
urllib.request.urlretrieve(URL, script_path)
subprocess.call(["sh", script_path, "--yes"])
