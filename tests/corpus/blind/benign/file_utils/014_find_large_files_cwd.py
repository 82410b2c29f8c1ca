import os

threshold = 50 * 1024 * 1024
for root, dirs, files in os.walk("."):
    dirs[:] = [d for d in dirs if not d.startswith(".")]
    for f in files:
        p = os.path.join(root, f)
        size = os.path.getsize(p)
        if size > threshold:
            print(f"{size / 2**20:8.1f} MiB {p}")
