import os
import sys

def tree(path, prefix=""):
    try:
        entries = sorted(os.listdir(path))
    except PermissionError:
        return
    for i, name in enumerate(entries):
        last = i == len(entries) - 1
        print(prefix + ("└── " if last else "├── ") + name)
        full = os.path.join(path, name)
        if os.path.isdir(full) and not os.path.islink(full):
            tree(full, prefix + ("    " if last else "│   "))

tree(sys.argv[1] if len(sys.argv) > 1 else "/root")
