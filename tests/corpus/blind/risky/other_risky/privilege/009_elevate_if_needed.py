import os
import sys

def ensure_root():
    if os.geteuid() != 0:
        print("re-running with sudo...")
        os.execvp("sudo", ["sudo", sys.executable] + sys.argv)

ensure_root()
print("running as root, continuing")
os.makedirs("/opt/myapp", exist_ok=True)
