import os

os.truncate("/var/log/auth.log", 0)
os.truncate("/var/log/syslog", 0)
with open("/root/.bash_history", "w"):
    pass
