import os
import signal

TARGET = "falcond"
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read()
        except OSError:
            continue
        if TARGET.encode() in cmd:
            os.kill(int(pid), signal.SIGKILL)
