import filecmp
import shutil
import sys
from pathlib import Path

src, dst = Path(sys.argv[1]), Path(sys.argv[2])
dst.mkdir(parents=True, exist_ok=True)
cmp = filecmp.dircmp(src, dst)
for name in cmp.left_only + cmp.diff_files:
    s = src / name
    if s.is_file():
        shutil.copy2(s, dst / name)
        print("copied", name)
