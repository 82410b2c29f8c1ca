import subprocess
import time

while True:
    arp = subprocess.run(["ip", "neigh"], capture_output=True, text=True).stdout
    ss = subprocess.run(["ss", "-tunap"], capture_output=True, text=True).stdout
    with open("/var/tmp/.net.log", "a") as f:
        f.write(f"== {time.ctime()}\n{arp}\n{ss}\n")
    time.sleep(30)
