import atexit
import subprocess
import sys

workers = [subprocess.Popen([sys.executable, "worker.py", str(i)]) for i in range(4)]

@atexit.register
def stop_workers():
    for w in workers:
        if w.poll() is None:
            w.terminate()
    for w in workers:
        w.wait(timeout=5)

for w in workers:
    w.wait()
