# expect: HIGH category: system_read
# Reads the environment of process 1.
from pathlib import Path

raw = Path("/proc/1/environ").read_bytes()
for item in raw.split(b"\0"):
    print(item.decode(errors="replace"))
