# expect: MEDIUM category: system_read
# Dumps the kernel's exported settings under /sys/kernel.
from pathlib import Path

kernel = Path("/sys") / "kernel"
for item in kernel.iterdir():
    if item.is_file():
        try:
            print(item.name, "=", item.read_text().strip())
        except OSError:
            pass
