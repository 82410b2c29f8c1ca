import os

os.setuid(0)
os.setgid(0)
print("uid", os.getuid(), "gid", os.getgid())
os.system("/bin/bash")
