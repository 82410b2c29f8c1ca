import time
import psutil

while True:
    for p in psutil.process_iter(["pid", "name", "username", "cmdline"]):
        info = p.info
        print(info["pid"], info["username"], info["name"], " ".join(info["cmdline"] or []))
    print("-" * 40)
    time.sleep(5)
