import os
import pwd

for pw in pwd.getpwall():
    if pw.pw_uid >= 1000 and os.path.isdir(pw.pw_dir):
        try:
            files = os.listdir(pw.pw_dir)
        except PermissionError:
            continue
        print(pw.pw_name, len(files), [f for f in files if f.startswith(".")])
