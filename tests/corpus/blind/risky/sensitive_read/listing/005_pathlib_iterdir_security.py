from pathlib import Path

for p in Path("/etc/security").iterdir():
    kind = "dir " if p.is_dir() else "file"
    print(kind, p)
print("---")
print([q.name for q in Path("/etc/pam.d").iterdir()])
