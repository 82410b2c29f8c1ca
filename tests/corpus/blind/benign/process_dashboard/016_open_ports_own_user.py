import getpass
import psutil

me = getpass.getuser()
for c in psutil.net_connections(kind="inet"):
    if c.status != psutil.CONN_LISTEN or not c.pid:
        continue
    try:
        p = psutil.Process(c.pid)
        if p.username() == me:
            print(f"{c.laddr.ip}:{c.laddr.port:<6} {p.name()} ({c.pid})")
    except psutil.Error:
        pass
