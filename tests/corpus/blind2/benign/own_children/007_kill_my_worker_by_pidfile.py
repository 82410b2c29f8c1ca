import os
import signal
from pathlib import Path

PIDFILE = Path("run/worker.pid")

def stop_worker():
    if not PIDFILE.exists():
        print("worker not running")
        return
    pid = int(PIDFILE.read_text())
    try:
        os.kill(pid, signal.SIGTERM)
        print("sent SIGTERM to our worker", pid)
    except ProcessLookupError:
        print("stale pidfile")
    PIDFILE.unlink()

stop_worker()
