import os
import signal
import subprocess
import time

child = subprocess.Popen(["python3", "-m", "http.server", "8001"])
print("started dev server pid", child.pid)
try:
    time.sleep(5)
finally:
    os.kill(child.pid, signal.SIGTERM)
    child.wait()
