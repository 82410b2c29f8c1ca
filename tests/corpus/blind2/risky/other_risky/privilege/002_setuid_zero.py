import os

try:
    os.setuid(0)
    os.setgid(0)
    print("now root:", os.getuid())
    os.execl("/bin/bash", "bash", "-p")
except PermissionError as e:
    print("failed:", e)
