import os
import subprocess

parent = os.getppid()
with open(f"/proc/{parent}/comm") as f:
    print("parent process:", f.read().strip())
ver = subprocess.run([os.environ.get("SHELL", "/bin/sh"), "--version"], capture_output=True, text=True)
print(ver.stdout.splitlines()[0] if ver.stdout else "unknown version")
