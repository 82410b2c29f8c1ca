import os
import signal
import subprocess

pids = []
for cfg in ("a.yaml", "b.yaml"):
    pids.append(subprocess.Popen(["python3", "consumer.py", "--config", cfg]).pid)

input("press enter to stop consumers... ")
for pid in pids:
    os.kill(pid, signal.SIGTERM)
    os.waitpid(pid, 0)
print("consumers stopped")
