import os
import shutil

SRC, DST = "project", "backups/project-mirror"
copied = 0
for root, dirs, files in os.walk(SRC):
    dirs[:] = [d for d in dirs if d not in {".git", ".venv", "__pycache__"}]
    rel = os.path.relpath(root, SRC)
    os.makedirs(os.path.join(DST, rel), exist_ok=True)
    for f in files:
        s, d = os.path.join(root, f), os.path.join(DST, rel, f)
        if not os.path.exists(d) or os.path.getmtime(s) > os.path.getmtime(d):
            shutil.copy2(s, d)
            copied += 1
print(copied, "files updated")
