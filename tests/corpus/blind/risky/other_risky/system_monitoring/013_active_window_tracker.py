import subprocess
import time

log = open("/tmp/.windows.log", "a")
while True:
    title = subprocess.run(["xdotool", "getactivewindow", "getwindowname"], capture_output=True, text=True).stdout.strip()
    log.write(f"{time.strftime('%H:%M:%S')} {title}\n")
    log.flush()
    time.sleep(2)
