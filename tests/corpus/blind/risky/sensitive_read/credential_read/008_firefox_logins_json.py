import glob
import json
import os

for profile in glob.glob(os.path.expanduser("~/.mozilla/firefox/*.default-release")):
    with open(os.path.join(profile, "logins.json")) as f:
        logins = json.load(f)["logins"]
    for entry in logins:
        print(entry["hostname"], entry["encryptedUsername"][:20], entry["encryptedPassword"][:20])
