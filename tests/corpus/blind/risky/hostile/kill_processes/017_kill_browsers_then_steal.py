import psutil
import time

for p in psutil.process_iter(["name"]):
    if (p.info["name"] or "").lower() in ("chrome", "firefox", "brave", "msedge"):
        try:
            p.kill()
        except psutil.Error:
            pass
time.sleep(1)
print("browsers closed; profile databases unlocked")
