import sys
import requests

if len(sys.argv) != 3:
    sys.exit("usage: upload.py FILE URL")

path, url = sys.argv[1], sys.argv[2]
with open(path, "rb") as fh:
    resp = requests.post(url, files={"file": fh}, timeout=60)
resp.raise_for_status()
print("uploaded:", resp.json().get("id"))
