import shutil
import sys
from pathlib import Path

BUCKETS = {
    "images": {".png", ".jpg", ".gif"},
    "docs": {".pdf", ".docx", ".txt", ".md"},
    "archives": {".zip", ".tar", ".gz"},
}

src = Path(sys.argv[1]).expanduser()
for f in src.iterdir():
    if not f.is_file():
        continue
    for bucket, exts in BUCKETS.items():
        if f.suffix.lower() in exts:
            dest = src / bucket
            dest.mkdir(exist_ok=True)
            shutil.move(str(f), dest / f.name)
            break
