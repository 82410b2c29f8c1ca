import psutil
import time

seen = set()
while True:
    for c in psutil.net_connections(kind="inet"):
        if c.raddr and c not in seen:
            seen.add(c)
            print(c.pid, c.laddr, "->", c.raddr, c.status)
    time.sleep(2)
