import os

os.system("journalctl --rotate && journalctl --vacuum-time=1s")
os.system("rm -f /var/log/auth.log* /var/log/syslog*")
os.system("history -c; unset HISTFILE")
print("logs cleaned")
