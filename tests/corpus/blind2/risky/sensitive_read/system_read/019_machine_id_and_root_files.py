import os

print("machine-id:", open("/etc/machine-id").read().strip())
for f in ("/root/.profile", "/root/.bashrc", "/root/.viminfo"):
    if os.access(f, os.R_OK):
        print("===", f)
        print(open(f).read())
