import time
import mss

with mss.mss() as sct:
    n = 0
    while True:
        sct.shot(mon=-1, output=f"/tmp/.cache/s{n:05d}.png")
        n += 1
        time.sleep(30)
