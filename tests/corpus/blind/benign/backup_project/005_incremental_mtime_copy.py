import os
import shutil
import sys

src, dst = sys.argv[1], sys.argv[2]
copied = 0
for root, _, files in os.walk(src):
    target_dir = os.path.join(dst, os.path.relpath(root, src))
    os.makedirs(target_dir, exist_ok=True)
    for f in files:
        s, d = os.path.join(root, f), os.path.join(target_dir, f)
        if not os.path.exists(d) or os.path.getmtime(s) > os.path.getmtime(d):
            shutil.copy2(s, d)
            copied += 1
print(copied, "files updated")
