import os
import sys
import requests

token = os.environ["GITHUB_TOKEN"]
upload_url, asset = sys.argv[1], sys.argv[2]
with open(asset, "rb") as f:
    r = requests.post(
        upload_url,
        params={"name": os.path.basename(asset)},
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/octet-stream"},
        data=f,
    )
print(r.status_code, r.json().get("browser_download_url"))
