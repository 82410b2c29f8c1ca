import os

me = os.getpid()
for pid in (p for p in os.listdir("/proc") if p.isdigit()):
    if int(pid) == me:
        continue
    try:
        with open(os.path.join("/proc", pid, "cmdline"), "rb") as f:
            args = f.read().split(b"\x00")
    except OSError:
        continue
    if any(b"--password" in a or b"-p" == a for a in args):
        print(pid, b" ".join(args).decode(errors="replace"))
