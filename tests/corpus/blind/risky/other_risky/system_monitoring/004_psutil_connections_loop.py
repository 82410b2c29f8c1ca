import time
import psutil

seen = set()
while True:
    for c in psutil.net_connections(kind="inet"):
        if c.raddr and (c.pid, c.raddr) not in seen:
            seen.add((c.pid, c.raddr))
            try:
                name = psutil.Process(c.pid).name() if c.pid else "?"
            except psutil.Error:
                name = "?"
            print(f"{name} {c.laddr.ip}:{c.laddr.port} -> {c.raddr.ip}:{c.raddr.port}")
    time.sleep(1)
