import os
import sys

def dir_size(path):
    total = 0
    for dirpath, _dirs, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(dirpath, f))
            except OSError:
                pass
    return total

target = sys.argv[1] if len(sys.argv) > 1 else "."
print(f"{dir_size(target) / 1e6:.2f} MB in {target}")
