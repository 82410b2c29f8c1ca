# expect: BLOCKED category: disable_security
# Truncates the system logs and the shell history.
import os

for log in ("/var/log/auth.log", "/var/log/syslog", "/var/log/audit/audit.log"):
    try:
        open(log, "w").close()
    except OSError:
        pass
os.system("history -c")
