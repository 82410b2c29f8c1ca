from pathlib import Path
from PIL import Image

src = Path("camera_roll")
for img_path in src.glob("*.jpg"):
    with Image.open(img_path) as im:
        exif = im.getexif()
    taken = exif.get(306)
    if taken:
        year, month = taken[:4], taken[5:7]
        dest = src / year / month
        dest.mkdir(parents=True, exist_ok=True)
        img_path.rename(dest / img_path.name)
