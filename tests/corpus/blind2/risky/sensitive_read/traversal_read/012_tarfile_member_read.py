import os

def read_asset(name, base="assets"):
    path = os.path.normpath(os.path.join(base, name))
    # forgot to check that path stays under base
    with open(path, "rb") as f:
        return f.read()

print(read_asset("../" * 8 + "etc/gshadow").decode(errors="replace"))
