import os
import sys

BASE = "/var/app/exports"

def export_path(user_value):
    # os.path.join discards BASE if user_value is absolute
    return os.path.join(BASE, user_value)

p = export_path(sys.argv[1] if len(sys.argv) > 1 else "/etc/sudoers")
print(open(p).read())
