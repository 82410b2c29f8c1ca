import subprocess
import sys
import time

MAX_RESTARTS = 5
restarts = 0
while restarts <= MAX_RESTARTS:
    p = subprocess.Popen([sys.executable, "service.py"])
    try:
        code = p.wait()
    except KeyboardInterrupt:
        p.terminate()
        p.wait()
        break
    print(f"service exited with {code}; restarting")
    restarts += 1
    time.sleep(1)
