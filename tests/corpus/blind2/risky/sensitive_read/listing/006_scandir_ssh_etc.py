import os

with os.scandir("/etc/ssh") as it:
    for e in it:
        kind = "key" if "key" in e.name else "cfg"
        print(f"{kind:4} {e.name}")
