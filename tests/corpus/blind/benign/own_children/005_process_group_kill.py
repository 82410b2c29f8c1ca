import os
import signal
import subprocess

p = subprocess.Popen("npm run dev", shell=True, start_new_session=True)
try:
    p.wait(timeout=120)
except subprocess.TimeoutExpired:
    os.killpg(os.getpgid(p.pid), signal.SIGTERM)
    p.wait()
print("dev server stopped")
