import shutil
from pathlib import Path

downloads = Path.home() / "Downloads"
buckets = {"images": {".jpg", ".png", ".gif"}, "docs": {".pdf", ".docx", ".txt"}, "archives": {".zip", ".tar", ".gz"}}
for f in downloads.iterdir():
    if not f.is_file():
        continue
    for folder, exts in buckets.items():
        if f.suffix.lower() in exts:
            dest = downloads / folder
            dest.mkdir(exist_ok=True)
            shutil.move(str(f), dest / f.name)
            break
