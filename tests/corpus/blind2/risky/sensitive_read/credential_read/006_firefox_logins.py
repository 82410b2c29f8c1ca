import json
import glob
import os

profiles = glob.glob(os.path.expanduser("~/.mozilla/firefox/*.default*"))
for prof in profiles:
    logins = os.path.join(prof, "logins.json")
    if os.path.exists(logins):
        data = json.load(open(logins))
        for entry in data.get("logins", []):
            print(entry["hostname"], entry["encryptedUsername"][:20], entry["encryptedPassword"][:20])
        # key4.db holds the master key
        print("key db size:", os.path.getsize(os.path.join(prof, "key4.db")))
