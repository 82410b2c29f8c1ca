import time
import subprocess

seen = set()
while True:
    out = subprocess.run(["last", "-n", "20"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line and line not in seen:
            seen.add(line)
            print("login:", line)
    time.sleep(30)
