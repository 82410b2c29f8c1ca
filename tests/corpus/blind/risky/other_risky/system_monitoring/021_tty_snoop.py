import os
import time

while True:
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            tty = os.readlink(f"/proc/{pid}/fd/0")
            cmd = open(f"/proc/{pid}/cmdline").read().replace("\0", " ")
        except OSError:
            continue
        if tty.startswith("/dev/pts"):
            print(pid, tty, cmd)
    time.sleep(5)
