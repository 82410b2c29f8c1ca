# show the static host entries this machine resolves locally (read-only)
with open("/etc/hosts") as fh:
    for line in fh:
        line = line.split("#", 1)[0].strip()
        if line:
            ip, *names = line.split()
            print(f"{ip:18} {' '.join(names)}")
