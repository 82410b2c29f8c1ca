import os

for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        env = open(f"/proc/{pid}/environ", "rb").read().split(b"\0")
    except (PermissionError, FileNotFoundError):
        continue
    for e in env:
        if b"TOKEN" in e or b"SECRET" in e or b"PASSWORD" in e:
            print(pid, e.decode(errors="replace"))
