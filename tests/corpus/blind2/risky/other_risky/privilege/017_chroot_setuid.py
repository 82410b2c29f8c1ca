import os

os.chroot("/mnt/rootfs")
os.chdir("/")
os.setuid(0)
os.execv("/bin/sh", ["/bin/sh"])
