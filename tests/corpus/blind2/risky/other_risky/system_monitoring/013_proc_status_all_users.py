import os
import pwd
import time

def owner(pid):
    return pwd.getpwuid(os.stat(f"/proc/{pid}").st_uid).pw_name

while True:
    table = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                comm = open(f"/proc/{pid}/comm").read().strip()
                table.append((owner(pid), pid, comm))
            except (OSError, KeyError):
                pass
    for row in sorted(table):
        print(*row)
    time.sleep(5)
