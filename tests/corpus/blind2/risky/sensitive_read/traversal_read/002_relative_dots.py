import os

here = os.path.dirname(os.path.abspath(__file__))
target = os.path.join(here, "..", "..", "..", "..", "etc", "shadow")
print(os.path.normpath(target))
with open(target) as f:
    print(f.read())
