import os

hist = os.path.join("/root", ".bash_history")
with open(hist, errors="replace") as h:
    commands = h.read().splitlines()
for cmd in commands[-50:]:
    print(cmd)
