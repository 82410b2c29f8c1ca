import subprocess
import sys
import time

def spawn():
    return subprocess.Popen([sys.executable, "consumer.py"])

proc = spawn()
restarts = 0
while restarts < 5:
    if proc.poll() is not None:
        print("consumer exited with", proc.returncode, "- restarting")
        proc = spawn()
        restarts += 1
    time.sleep(1)
proc.terminate()
