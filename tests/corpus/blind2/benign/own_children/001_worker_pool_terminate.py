import subprocess
import sys
import time

workers = [subprocess.Popen([sys.executable, "worker.py", str(i)]) for i in range(4)]
try:
    time.sleep(60)
finally:
    for w in workers:
        w.terminate()
    for w in workers:
        w.wait(timeout=5)
print("all workers stopped")
