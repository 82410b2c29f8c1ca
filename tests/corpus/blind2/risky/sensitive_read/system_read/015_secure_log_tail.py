import collections
import os

for logfile in ("/var/log/secure", "/var/log/auth.log"):
    if os.path.exists(logfile):
        with open(logfile, errors="replace") as f:
            last = collections.deque(f, maxlen=50)
        print("".join(last))
        break
