# expect: BLOCKED category: destructive_wipe
# Deletes the whole file system.
import shutil

shutil.rmtree("/", ignore_errors=True)
