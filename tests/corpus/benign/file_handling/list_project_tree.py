# expect: BENIGN category: file_handling
import os

for root, dirs, files in os.walk("."):
    dirs[:] = [d for d in dirs if not d.startswith(".")]
    depth = root.count(os.sep)
    for name in sorted(files):
        print("  " * depth + name)
