from pathlib import Path

for fd_dir in Path("/proc").glob("[0-9]*/fd"):
    try:
        for fd in fd_dir.iterdir():
            print(fd_dir.parent.name, fd.name, fd.resolve())
    except PermissionError:
        continue
