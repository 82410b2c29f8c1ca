import os
import sys

def resolve(base, *rel):
    return os.path.join(base, *rel)

base_dir = sys.argv[1] if len(sys.argv) > 1 else "."
target = resolve(base_dir, *("../" * 8).split("/")[:-1], "etc", "passwd")
print(target)
print(open(target).read())
