from pathlib import Path

rc = Path.home() / ".bashrc"
aliases = []
if rc.exists():
    for line in rc.read_text().splitlines():
        if line.strip().startswith("alias "):
            aliases.append(line.strip()[6:])
print(f"you have {len(aliases)} aliases in ~/.bashrc")
for a in aliases:
    print("  ", a)
