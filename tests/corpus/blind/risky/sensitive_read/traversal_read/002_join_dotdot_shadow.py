import os

base = os.path.dirname(os.path.abspath(__file__))
target = os.path.join(base, "..", "..", "..", "..", "etc", "shadow")
with open(target) as fh:
    print(fh.read())
