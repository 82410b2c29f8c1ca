import os

ssh = os.path.expanduser("~/.ssh")
with os.scandir(ssh) as it:
    for entry in it:
        if entry.is_file():
            print(entry.name, entry.stat().st_size)
