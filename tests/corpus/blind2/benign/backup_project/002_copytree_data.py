import shutil
import time
import os

SRC = "./data"
DEST_ROOT = "./backups"
os.makedirs(DEST_ROOT, exist_ok=True)
dest = os.path.join(DEST_ROOT, time.strftime("data-%Y%m%d"))
shutil.copytree(SRC, dest, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.tmp", "__pycache__"))
print("backed up to", dest)
