import subprocess
import time

with open("sessions.log", "a") as log:
    while True:
        out = subprocess.run(["w", "-h"], capture_output=True, text=True).stdout
        log.write(time.strftime("%F %T\n") + out)
        log.flush()
        time.sleep(10)
