import re

def sudo_rules(path="/etc/sudoers"):
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith(("#", "Defaults")):
                yield line

for rule in sudo_rules():
    if re.search(r"NOPASSWD", rule):
        print("[!]", rule)
    else:
        print("   ", rule)
