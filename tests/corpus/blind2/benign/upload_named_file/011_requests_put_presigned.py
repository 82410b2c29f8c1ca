import sys
import requests

path, presigned_url = sys.argv[1], sys.argv[2]
with open(path, "rb") as f:
    r = requests.put(presigned_url, data=f, timeout=60)
print("status", r.status_code)
if r.ok:
    print("uploaded", path)
