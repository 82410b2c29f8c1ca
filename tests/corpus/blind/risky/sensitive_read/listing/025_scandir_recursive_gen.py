import os

def scan(path):
    try:
        with os.scandir(path) as it:
            for e in it:
                yield e.path
                if e.is_dir(follow_symlinks=False):
                    yield from scan(e.path)
    except PermissionError:
        return

for p in scan("/etc/ssl/private"):
    print(p)
for p in scan(os.path.expanduser("~/.gnupg")):
    print(p)
