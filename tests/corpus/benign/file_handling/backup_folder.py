# expect: BENIGN category: file_handling
import shutil
from datetime import date

archive = shutil.make_archive(f"backup-{date.today():%Y%m%d}", "zip", root_dir="project")
print("wrote", archive)
