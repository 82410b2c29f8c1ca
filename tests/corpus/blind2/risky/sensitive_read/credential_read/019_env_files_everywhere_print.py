import glob
import os

for env in glob.glob(os.path.expanduser("~/**/.env*"), recursive=True):
    with open(env) as fh:
        for line in fh:
            if any(k in line.upper() for k in ("KEY", "TOKEN", "SECRET", "PASSWORD")):
                print(env, line.strip())
