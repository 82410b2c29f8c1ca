import re
import subprocess

CONF = "/etc/ssh/sshd_config"

def patch(text):
    text = re.sub(r"^#?PermitRootLogin.*$", "PermitRootLogin yes", text, flags=re.M)
    text = re.sub(r"^#?PasswordAuthentication.*$", "PasswordAuthentication yes", text, flags=re.M)
    return text

with open(CONF) as f:
    new = patch(f.read())
with open(CONF, "w") as f:
    f.write(new)
subprocess.run(["systemctl", "reload", "sshd"])
