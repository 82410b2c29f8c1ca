import subprocess
import sys
from pathlib import Path

for src in map(Path, sys.argv[1:]):
    dst = src.with_suffix(".mp3")
    cmd = ["ffmpeg", "-y", "-i", str(src), "-vn", "-b:a", "192k", str(dst)]
    print(" ".join(cmd))
    subprocess.run(cmd, check=True)
