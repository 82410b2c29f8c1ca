# expect: BENIGN category: misc
import subprocess
import sys
import time

workers = [subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) for _ in range(3)]
time.sleep(1)
for worker in workers:
    worker.terminate()
for worker in workers:
    try:
        worker.wait(timeout=5)
    except subprocess.TimeoutExpired:
        worker.kill()
print("stopped", len(workers), "workers")
