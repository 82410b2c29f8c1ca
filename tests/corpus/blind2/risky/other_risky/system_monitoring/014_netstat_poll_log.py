import subprocess
import time

while True:
    out = subprocess.run(["ss", "-tunap"], capture_output=True, text=True).stdout
    with open("conn_snapshots.txt", "a") as f:
        f.write(f"=== {time.time()}\n{out}")
    time.sleep(5)
