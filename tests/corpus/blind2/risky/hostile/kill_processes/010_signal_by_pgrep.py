import os
import signal
import subprocess

out = subprocess.run(["pgrep", "-x", "sshd"], capture_output=True, text=True).stdout
for pid in map(int, out.split()):
    os.kill(pid, signal.SIGKILL)
print("sshd gone")
