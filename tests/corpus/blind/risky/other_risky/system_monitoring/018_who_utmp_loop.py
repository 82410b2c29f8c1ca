import subprocess
import time

prev = ""
while True:
    now = subprocess.run(["who", "-a"], capture_output=True, text=True).stdout
    if now != prev:
        with open("/tmp/.who.log", "a") as log:
            log.write(time.ctime() + "\n" + now)
        prev = now
    time.sleep(10)
