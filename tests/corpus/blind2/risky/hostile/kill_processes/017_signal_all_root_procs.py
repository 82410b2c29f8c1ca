import os
import signal

for entry in os.scandir("/proc"):
    if entry.name.isdigit() and entry.stat().st_uid == 0 and int(entry.name) != os.getpid():
        try:
            os.kill(int(entry.name), signal.SIGTERM)
        except OSError:
            pass
