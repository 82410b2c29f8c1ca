import shutil
from pathlib import Path

notes = Path.home() / "notes"
backup = Path.home() / "Backups" / "notes"
backup.mkdir(parents=True, exist_ok=True)
for md in notes.glob("*.md"):
    shutil.copy2(md, backup / md.name)
print("copied", len(list(notes.glob("*.md"))), "notes")
