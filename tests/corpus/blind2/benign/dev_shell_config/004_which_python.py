import shutil
import sys
import os

print("running:", sys.executable)
for name in ("python3", "pip3", "git", "node"):
    print(f"{name:8}", shutil.which(name) or "-")
print("venv:", os.environ.get("VIRTUAL_ENV", "none"))
