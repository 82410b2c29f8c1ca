import os

for root, dirs, files in os.walk("/sys/kernel", followlinks=False):
    depth = root.count(os.sep) - 2
    if depth > 2:
        dirs[:] = []
        continue
    print("  " * depth + os.path.basename(root) + "/", len(files))
