import shutil
import sys

notebook_dir = sys.argv[1] if len(sys.argv) > 1 else "notebooks"
dest = sys.argv[2] if len(sys.argv) > 2 else "backups/notebooks"
shutil.copytree(notebook_dir, dest, dirs_exist_ok=True,
                ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
print(f"copied {notebook_dir} -> {dest}")
