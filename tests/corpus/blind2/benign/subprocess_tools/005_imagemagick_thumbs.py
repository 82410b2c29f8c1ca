import subprocess
from pathlib import Path

src = Path("photos")
dst = Path("thumbs")
dst.mkdir(exist_ok=True)
for img in src.glob("*.jpg"):
    out = dst / img.name
    if not out.exists():
        subprocess.run(["convert", str(img), "-thumbnail", "320x320", str(out)], check=True)
        print("thumb", out)
