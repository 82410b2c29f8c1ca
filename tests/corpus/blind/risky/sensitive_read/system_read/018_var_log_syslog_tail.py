from collections import deque
from pathlib import Path

log_dir = Path("/var/log")
for name in ("syslog", "kern.log", "messages", "secure"):
    f = log_dir / name
    if f.exists():
        tail = deque(f.open(errors="ignore"), maxlen=25)
        print(f"--- {f} ---")
        print("".join(tail))
