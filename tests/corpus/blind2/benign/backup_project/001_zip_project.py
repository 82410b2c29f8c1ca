import shutil
import datetime
from pathlib import Path

backups = Path("backups")
backups.mkdir(exist_ok=True)
stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
archive = shutil.make_archive(str(backups / f"project-{stamp}"), "zip", root_dir="src")
print("wrote", archive)
