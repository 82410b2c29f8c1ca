import argparse
import shutil
from pathlib import Path

ap = argparse.ArgumentParser()
ap.add_argument("--src", default=".")
ap.add_argument("--dest", required=True, help="where to put the copy, e.g. ~/Backups/myproj")
a = ap.parse_args()

dest = Path(a.dest).expanduser()
shutil.copytree(a.src, dest, dirs_exist_ok=True,
                ignore=shutil.ignore_patterns(".git", ".venv", "node_modules", "*.pyc"))
print("project copied to", dest)
