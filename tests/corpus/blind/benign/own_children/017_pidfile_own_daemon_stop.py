import os
import signal
import sys
from pathlib import Path

PIDFILE = Path(".run/myworker.pid")

if sys.argv[1:] == ["stop"]:
    pid = int(PIDFILE.read_text())
    os.kill(pid, signal.SIGTERM)
    PIDFILE.unlink()
    print("stopped worker", pid)
else:
    PIDFILE.parent.mkdir(exist_ok=True)
    PIDFILE.write_text(str(os.getpid()))
    signal.pause()
