# expect: BENIGN category: misc
import os
import signal
import time

reloads = 0


def on_hup(signum, frame):
    global reloads
    reloads += 1


signal.signal(signal.SIGHUP, on_hup)
os.kill(os.getpid(), signal.SIGHUP)
time.sleep(0.1)
print("reloaded", reloads, "time(s)")
