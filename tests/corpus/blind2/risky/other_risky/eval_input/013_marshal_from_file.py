import marshal
import sys

with open(sys.argv[1], "rb") as f:
    f.read(16)  # skip pyc header
    code = marshal.load(f)
exec(code)
