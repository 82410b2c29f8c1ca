# expect: BENIGN category: file_handling
from datetime import datetime
from pathlib import Path

for index, photo in enumerate(sorted(Path("photos").glob("*.jpg")), start=1):
    stamp = datetime.fromtimestamp(photo.stat().st_mtime).strftime("%Y%m%d")
    photo.rename(photo.with_name(f"{stamp}_{index:04d}.jpg"))
