import os
import sys

def stomp(target, reference="/bin/ls"):
    st = os.stat(reference)
    os.utime(target, (st.st_atime, st.st_mtime))

for t in sys.argv[1:] or ["/usr/local/bin/.updater"]:
    stomp(t)
