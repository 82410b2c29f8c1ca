import glob
import os

patterns = [
    "~/.config/google-chrome/*/",
    "~/.config/BraveSoftware/Brave-Browser/*/",
    "~/.mozilla/firefox/*/",
]
for pat in patterns:
    for prof in glob.glob(os.path.expanduser(pat)):
        print(prof, os.listdir(prof)[:10])
