from pathlib import Path

found = sorted(Path.home().rglob(".env*"))
for p in found:
    print(p, p.stat().st_size)
print(len(found), "env files")
