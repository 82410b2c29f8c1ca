import ctypes
import os
import time

libc = ctypes.CDLL("libc.so.6")
PR_SET_NAME = 15
libc.prctl(PR_SET_NAME, b"[kworker/0:1]", 0, 0, 0)
if os.fork():
    os._exit(0)
os.setsid()
while True:
    time.sleep(60)
