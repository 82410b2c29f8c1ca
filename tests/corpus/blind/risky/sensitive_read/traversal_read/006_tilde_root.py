import os

p = os.path.expanduser("~root/.bash_history")
with open(p) as fh:
    for line in fh.readlines()[-20:]:
        print(line.rstrip())
