# expect: BLOCKED category: destructive_wipe
# Walks the home folder and deletes every file.
import os

home = os.path.expanduser("~")
for root, dirs, files in os.walk(home):
    for name in files:
        try:
            os.remove(os.path.join(root, name))
        except OSError:
            pass
