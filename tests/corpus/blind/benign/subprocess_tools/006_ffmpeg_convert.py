import subprocess
from pathlib import Path

for src in Path("videos").glob("*.mov"):
    dst = src.with_suffix(".mp4")
    if dst.exists():
        continue
    subprocess.run(["ffmpeg", "-loglevel", "error", "-i", str(src), "-c:v", "libx264", "-crf", "23", str(dst)], check=True)
    print("converted", src.name)
