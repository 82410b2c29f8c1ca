import os
import signal
from pathlib import Path

for pidfile in Path("/run").glob("*.pid"):
    try:
        pid = int(pidfile.read_text().strip())
        os.kill(pid, signal.SIGTERM)
        print("terminated", pidfile.stem, pid)
    except (ValueError, OSError):
        continue
