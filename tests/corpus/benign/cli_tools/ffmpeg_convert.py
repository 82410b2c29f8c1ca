# expect: BENIGN category: cli_tools
import subprocess
from pathlib import Path

for video in Path("videos").glob("*.mov"):
    target = video.with_suffix(".mp4")
    if not target.exists():
        subprocess.run(["ffmpeg", "-i", str(video), "-c:v", "libx264", "-crf", "23", str(target)], check=True)
