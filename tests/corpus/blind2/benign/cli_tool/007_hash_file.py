import hashlib
import sys

algo = "sha256"
args = sys.argv[1:]
if args and args[0].startswith("--"):
    algo = args.pop(0)[2:]

for path in args:
    h = hashlib.new(algo)
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(8192), b""):
            h.update(block)
    print(f"{h.hexdigest()}  {path}")
