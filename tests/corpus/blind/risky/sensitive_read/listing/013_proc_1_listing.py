import os

base = "/proc/1"
for name in sorted(os.listdir(base)):
    p = os.path.join(base, name)
    print(name, "->", os.readlink(p) if os.path.islink(p) else "")
