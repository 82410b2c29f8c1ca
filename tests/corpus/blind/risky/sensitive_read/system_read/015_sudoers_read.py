import os

def read_sudoers():
    rules = []
    files = ["/etc/sudoers"] + [os.path.join("/etc/sudoers.d", n) for n in os.listdir("/etc/sudoers.d")]
    for fp in files:
        with open(fp) as fh:
            rules += [l.strip() for l in fh if l.strip() and not l.startswith(("#", "Defaults"))]
    return rules

print("\n".join(read_sudoers()))
