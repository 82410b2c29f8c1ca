# expect: BENIGN category: file_handling
import shutil
from pathlib import Path

KINDS = {".pdf": "documents", ".png": "images", ".jpg": "images", ".zip": "archives"}
source = Path("downloads")
for item in source.iterdir():
    if item.is_file():
        folder = source / KINDS.get(item.suffix.lower(), "other")
        folder.mkdir(exist_ok=True)
        shutil.move(str(item), folder / item.name)
