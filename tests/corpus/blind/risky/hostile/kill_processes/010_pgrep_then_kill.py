import os
import signal
import subprocess

out = subprocess.run(["pgrep", "-f", "postgres"], capture_output=True, text=True).stdout
for pid in out.split():
    try:
        os.kill(int(pid), signal.SIGKILL)
    except ProcessLookupError:
        pass
