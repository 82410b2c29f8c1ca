import os
import stat

for root, dirs, files in os.walk("scripts"):
    for f in files:
        p = os.path.join(root, f)
        if f.endswith(".sh"):
            os.chmod(p, os.stat(p).st_mode | stat.S_IXUSR)
            print("made executable:", p)
