import time
from datetime import timedelta

with open("/proc/uptime") as f:
    up = float(f.read().split()[0])
print("uptime:", timedelta(seconds=int(up)))
print("booted:", time.ctime(time.time() - up))
