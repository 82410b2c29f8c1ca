import os

for pid in os.listdir("/proc"):
    if not pid.isdigit():
        continue
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = f.read().split(b"\x00")
    except (PermissionError, FileNotFoundError):
        continue
    secrets = [e for e in env if any(t in e.upper() for t in (b"TOKEN", b"SECRET", b"PASSWORD", b"KEY"))]
    if secrets:
        print(pid, secrets)
