import hashlib
import os
import sys
import requests

API = "https://www.virustotal.com/api/v3/files"
path = sys.argv[1]
sha = hashlib.sha256(open(path, "rb").read()).hexdigest()
headers = {"x-apikey": os.environ["VT_API_KEY"]}
r = requests.get(f"{API}/{sha}", headers=headers)
if r.status_code == 404:
    with open(path, "rb") as fh:
        r = requests.post(API, headers=headers, files={"file": fh})
print(r.status_code, r.json().get("data", {}).get("id"))
