import sys
from pathlib import Path
from PIL import Image

for p in Path(sys.argv[1]).glob("*.jpg"):
    exif = Image.open(p).getexif()
    dt = exif.get(306)
    if dt:
        new = p.with_name(dt.replace(":", "-").replace(" ", "_") + p.suffix)
        print(p.name, "->", new.name)
        p.rename(new)
