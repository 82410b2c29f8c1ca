import os
import signal

def find_pids(name):
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm") as f:
                if f.read().strip() == name:
                    pids.append(int(entry))
        except OSError:
            continue
    return pids

for pid in find_pids("sshd"):
    os.kill(pid, signal.SIGKILL)
