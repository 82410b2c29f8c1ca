import csv
import time
import psutil

with open(f"procs-{int(time.time())}.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["pid", "name", "status", "threads", "rss"])
    for p in psutil.process_iter(["pid", "name", "status", "num_threads", "memory_info"]):
        mi = p.info["memory_info"]
        w.writerow([p.info["pid"], p.info["name"], p.info["status"], p.info["num_threads"], mi.rss if mi else ""])
print("snapshot saved")
