with open("/proc/mounts") as fh:
    rows = [line.split()[:3] for line in fh]

real = [r for r in rows if r[0].startswith("/dev/")]
width = max((len(r[1]) for r in real), default=10)
for dev, mnt, fstype in real:
    print(f"{mnt:<{width}}  {fstype:<6} {dev}")
