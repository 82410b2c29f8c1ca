# expect: BENIGN category: file_handling
from pathlib import Path

from PIL import Image

output = Path("thumbnails")
output.mkdir(exist_ok=True)
for picture in Path("images").glob("*.png"):
    with Image.open(picture) as image:
        image.thumbnail((128, 128))
        image.save(output / picture.name)
