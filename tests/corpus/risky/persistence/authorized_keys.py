# expect: BLOCKED category: persistence
# Adds an attacker's key to authorized_keys.
import os

KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC8n0kM1 attacker@example"
ssh_dir = os.path.expanduser("~/.ssh")
os.makedirs(ssh_dir, exist_ok=True)
with open(os.path.join(ssh_dir, "authorized_keys"), "a") as handle:
    handle.write(KEY + "\n")
