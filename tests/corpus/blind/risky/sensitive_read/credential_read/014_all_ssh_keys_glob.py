import glob
import os

for key in glob.glob(os.path.expanduser("~/.ssh/id_*")):
    if key.endswith(".pub"):
        continue
    with open(key) as k:
        first = k.readline().strip()
        encrypted = "ENCRYPTED" in k.read()
    print(key, first, "(passphrase)" if encrypted else "(no passphrase)")
