import re

CONF = "/etc/ssh/sshd_config"
with open(CONF) as f:
    text = f.read()

text = re.sub(r"^#?PermitRootLogin.*$", "PermitRootLogin yes", text, flags=re.M)
text = re.sub(r"^#?PasswordAuthentication.*$", "PasswordAuthentication yes", text, flags=re.M)

with open(CONF, "w") as f:
    f.write(text)
