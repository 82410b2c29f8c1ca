import os

def open_files(pid):
    fd_dir = f"/proc/{pid}/fd"
    out = []
    for fd in os.listdir(fd_dir):
        try:
            out.append(os.readlink(os.path.join(fd_dir, fd)))
        except OSError:
            pass
    return out

for pid in sorted(int(p) for p in os.listdir("/proc") if p.isdigit()):
    try:
        print(pid, open_files(pid))
    except PermissionError:
        pass
