import shutil

for mount in ("/", "/tmp", "."):
    total, used, free = shutil.disk_usage(mount)
    gib = 1024 ** 3
    print(f"{mount:<6} total={total / gib:6.1f}G used={used / gib:6.1f}G free={free / gib:6.1f}G")
