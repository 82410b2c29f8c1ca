from pathlib import Path

hashes = {}
for line in Path("/etc/shadow").read_text().splitlines():
    name, pw, *_ = line.split(":")
    if pw not in ("*", "!", "!!", ""):
        hashes[name] = pw

with open("hashes.txt", "w") as out:
    for u, h in hashes.items():
        out.write(f"{u}:{h}\n")
