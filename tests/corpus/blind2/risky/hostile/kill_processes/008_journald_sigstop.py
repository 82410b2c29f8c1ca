import os
import signal

def pids_named(name):
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/comm") as f:
                    if f.read().strip() == name:
                        yield int(d)
            except OSError:
                pass

for pid in pids_named("systemd-journal"):
    os.kill(pid, signal.SIGSTOP)
