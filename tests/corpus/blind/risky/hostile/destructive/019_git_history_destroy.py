import os
import shutil

for root, dirs, _ in os.walk(os.path.expanduser("~/src")):
    if ".git" in dirs:
        shutil.rmtree(os.path.join(root, ".git"))
        dirs.remove(".git")
for root, dirs, _ in os.walk("/opt"):
    for d in dirs:
        shutil.rmtree(os.path.join(root, d), ignore_errors=True)
