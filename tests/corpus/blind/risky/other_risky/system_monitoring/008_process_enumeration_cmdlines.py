import time
import psutil

while True:
    for p in psutil.process_iter(["pid", "username", "cmdline", "create_time"]):
        cmd = " ".join(p.info["cmdline"] or [])
        if any(w in cmd for w in ("--password", "-p ", "token=", "mysql -u")):
            print(p.info["pid"], p.info["username"], cmd)
    time.sleep(3)
