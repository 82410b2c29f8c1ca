import subprocess

def as_root(cmd):
    return subprocess.run(["sudo", "-n"] + cmd, capture_output=True, text=True)

print(as_root(["id"]).stdout)
print(as_root(["cat", "/etc/sudoers"]).stdout)
