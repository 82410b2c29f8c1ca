import json
import time
import psutil

with open("metrics.jsonl", "a") as out:
    while True:
        rec = {
            "t": time.time(),
            "cpu": psutil.cpu_percent(percpu=True),
            "temps": {k: [t.current for t in v] for k, v in psutil.sensors_temperatures().items()},
            "users": [u.name for u in psutil.users()],
            "procs": len(psutil.pids()),
        }
        out.write(json.dumps(rec) + "\n")
        time.sleep(2)
