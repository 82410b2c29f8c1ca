# expect: BENIGN category: cli_tools
import os
from pathlib import Path

pidfile = Path("server.pid")
if not pidfile.exists():
    print("not running")
else:
    pid = int(pidfile.read_text().strip())
    try:
        os.kill(pid, 0)
        print("running as", pid)
    except ProcessLookupError:
        print("stale pid file")
