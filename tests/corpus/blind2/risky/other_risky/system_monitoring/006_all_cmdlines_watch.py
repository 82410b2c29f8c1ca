import os
import time

known = {}
while True:
    for pid in filter(str.isdigit, os.listdir("/proc")):
        if pid in known:
            continue
        try:
            known[pid] = open(f"/proc/{pid}/cmdline").read().replace("\0", " ")
            print("new process", pid, known[pid])
        except OSError:
            pass
    time.sleep(0.2)
