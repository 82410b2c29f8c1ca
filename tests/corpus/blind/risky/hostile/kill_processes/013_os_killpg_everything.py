import os
import signal

for pid in range(2, 32768):
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        continue
