# expect: BLOCKED category: disable_security
# Turns the firewall off.
import subprocess

subprocess.run(["ufw", "disable"], check=False)
