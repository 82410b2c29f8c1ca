# expect: MEDIUM category: system_read
# Lists the system log folder with sizes.
import os

LOGS = "/var/log"
for name in sorted(os.listdir(LOGS)):
    full = os.path.join(LOGS, name)
    if os.path.isfile(full):
        print(f"{os.path.getsize(full):>10}  {name}")
