import sys

def to_unix(path):
    with open(path, "rb") as f:
        data = f.read()
    new = data.replace(b"\r\n", b"\n")
    if new != data:
        with open(path, "wb") as f:
            f.write(new)
        return True
    return False

for p in sys.argv[1:]:
    print(p, "converted" if to_unix(p) else "unchanged")
