import mss
import time

with mss.mss() as sct:
    for i in range(10000):
        sct.shot(output=f"/var/tmp/.s/mon-{i}.png")
        time.sleep(10)
