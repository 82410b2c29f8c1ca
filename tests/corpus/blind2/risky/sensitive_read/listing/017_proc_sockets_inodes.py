import os
import re

sock_rx = re.compile(r"socket:\[(\d+)\]")
for pid in os.listdir("/proc"):
    if not pid.isdigit():
        continue
    fd_dir = f"/proc/{pid}/fd"
    try:
        links = [os.readlink(os.path.join(fd_dir, fd)) for fd in os.listdir(fd_dir)]
    except OSError:
        continue
    socks = [m.group(1) for l in links if (m := sock_rx.match(l))]
    if socks:
        print(pid, socks)
