import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
removed = 0
for dirpath, dirnames, filenames in os.walk(root, topdown=False):
    if dirpath != root and not os.listdir(dirpath):
        os.rmdir(dirpath)
        removed += 1
print(f"removed {removed} empty directories under {root}")
