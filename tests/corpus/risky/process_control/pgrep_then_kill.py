# expect: HIGH category: process_control
# Finds nginx with pgrep and sends it SIGKILL.
import os
import signal
import subprocess

output = subprocess.run(["pgrep", "nginx"], capture_output=True, text=True).stdout
for pid in output.split():
    os.kill(int(pid), signal.SIGKILL)
