import shutil
import os

base = os.path.join("dist", "docs-snapshot")
path = shutil.make_archive(base, "gztar", root_dir="docs")
print("archive:", path, os.path.getsize(path), "bytes")
