import os
import zipfile
from datetime import date

out = f"backups/notes-{date.today()}.zip"
os.makedirs("backups", exist_ok=True)
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for root, _, files in os.walk("notes"):
        for f in files:
            full = os.path.join(root, f)
            z.write(full, arcname=os.path.relpath(full, "."))
print("saved", out, os.path.getsize(out), "bytes")
