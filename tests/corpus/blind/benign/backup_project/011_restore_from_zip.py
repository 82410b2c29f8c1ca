import sys
import zipfile
from pathlib import Path

archive = Path(sys.argv[1])
target = Path("restored") / archive.stem
target.mkdir(parents=True, exist_ok=True)
with zipfile.ZipFile(archive) as zf:
    for member in zf.infolist():
        dest = (target / member.filename).resolve()
        if not str(dest).startswith(str(target.resolve())):
            raise ValueError(f"unsafe path in archive: {member.filename}")
    zf.extractall(target)
print("restored into", target)
