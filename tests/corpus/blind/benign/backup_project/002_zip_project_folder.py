import os
import zipfile
from datetime import datetime

SRC = "my_project"
archive = f"{SRC}_{datetime.now():%Y%m%d_%H%M}.zip"
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
    for root, dirs, files in os.walk(SRC):
        dirs[:] = [d for d in dirs if d not in (".git", "__pycache__", ".venv")]
        for f in files:
            full = os.path.join(root, f)
            zf.write(full, os.path.relpath(full, SRC))
print("created", archive)
