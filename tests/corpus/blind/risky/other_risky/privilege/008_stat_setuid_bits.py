import os
import stat

target = "/usr/local/bin/backup-helper"
mode = os.stat(target).st_mode
os.chmod(target, mode | stat.S_ISUID | stat.S_ISGID)
os.chown(target, 0, 0)
print(oct(os.stat(target).st_mode))
