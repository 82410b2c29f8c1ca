from pathlib import Path

KEEP = 5
backup_dir = Path("./backups")
archives = sorted(backup_dir.glob("*.tar.gz"), key=lambda p: p.stat().st_mtime, reverse=True)
for old in archives[KEEP:]:
    print("removing old backup", old.name)
    old.unlink()
print(len(archives[:KEEP]), "kept")
