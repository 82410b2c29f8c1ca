import os

print("SHELL:", os.environ.get("SHELL"))
for i, entry in enumerate(os.environ.get("PATH", "").split(os.pathsep)):
    exists = "ok" if os.path.isdir(entry) else "missing"
    print(f"{i:2d} {exists:7} {entry}")
