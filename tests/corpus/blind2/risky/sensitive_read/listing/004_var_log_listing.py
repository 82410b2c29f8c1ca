import os
import time

LOGDIR = "/var/log"
for root, dirs, files in os.walk(LOGDIR):
    for f in files:
        p = os.path.join(root, f)
        st = os.stat(p)
        print(time.ctime(st.st_mtime), st.st_size, p)
