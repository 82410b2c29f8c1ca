import os

SAFE = ("SHELL", "TERM", "LANG", "EDITOR", "PAGER", "HOME", "USER", "PWD")
for k in SAFE:
    print(f"{k:8}= {os.environ.get(k, '')}")
