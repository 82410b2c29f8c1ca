from pathlib import Path

d = Path("/etc/sudoers.d")
for entry in sorted(d.iterdir()):
    print(entry.name, oct(entry.stat().st_mode)[-3:])
