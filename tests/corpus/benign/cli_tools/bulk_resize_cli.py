# expect: BENIGN category: cli_tools
import argparse
from pathlib import Path

from PIL import Image

parser = argparse.ArgumentParser()
parser.add_argument("folder")
parser.add_argument("--width", type=int, default=800)
args = parser.parse_args()
out = Path(args.folder) / "resized"
out.mkdir(exist_ok=True)
for picture in Path(args.folder).glob("*.jpg"):
    with Image.open(picture) as image:
        ratio = args.width / image.width
        image.resize((args.width, int(image.height * ratio))).save(out / picture.name)
