import shutil

mounts = []
with open("/proc/mounts") as f:
    for line in f:
        dev, mnt, fstype, *_ = line.split()
        if dev.startswith("/dev/"):
            mounts.append(mnt)
for m in mounts:
    u = shutil.disk_usage(m)
    print(f"{m:20} {u.used / u.total:6.1%}")
