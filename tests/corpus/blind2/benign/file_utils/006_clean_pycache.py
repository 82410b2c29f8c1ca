import os
import shutil

removed = 0
for root, dirs, files in os.walk("."):
    for d in list(dirs):
        if d == "__pycache__":
            shutil.rmtree(os.path.join(root, d))
            dirs.remove(d)
            removed += 1
    for f in files:
        if f.endswith((".pyc", ".pyo")):
            os.remove(os.path.join(root, f))
print(f"removed {removed} __pycache__ dirs")
