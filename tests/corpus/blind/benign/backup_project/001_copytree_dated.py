import shutil
from datetime import date
from pathlib import Path

project = Path.cwd()
dest = project / "backups" / f"src-{date.today():%Y%m%d}"
shutil.copytree(project / "src", dest, dirs_exist_ok=True)
print("backed up to", dest)
