# expect: MEDIUM category: system_read
# Shows what is in root's home folder.
import os

with os.scandir("/root") as entries:
    for entry in entries:
        kind = "dir " if entry.is_dir() else "file"
        print(kind, entry.name)
