from pathlib import Path

for proc in Path("/proc").iterdir():
    if not proc.name.isdigit():
        continue
    try:
        fds = [str(fd.readlink()) for fd in (proc / "fd").iterdir()]
    except (PermissionError, FileNotFoundError):
        continue
    sockets = [f for f in fds if f.startswith("socket:")]
    print(proc.name, len(fds), len(sockets))
