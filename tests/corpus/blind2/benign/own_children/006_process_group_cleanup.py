import os
import signal
import subprocess
import time

# start the build in its own process group so we can stop all of it
build = subprocess.Popen(["make", "-j4"], start_new_session=True)
try:
    build.wait(timeout=600)
except subprocess.TimeoutExpired:
    os.killpg(os.getpgid(build.pid), signal.SIGTERM)
    time.sleep(2)
    build.kill()
print("exit:", build.returncode)
