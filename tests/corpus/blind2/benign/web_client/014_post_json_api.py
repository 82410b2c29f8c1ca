import os
import requests

payload = {"title": "Nightly build failed", "body": "See CI logs", "labels": ["ci"]}
r = requests.post(
    "https://api.github.com/repos/myorg/myrepo/issues",
    json=payload,
    headers={"Authorization": f"Bearer {os.environ['GH_TOKEN']}"},
    timeout=10,
)
print(r.status_code, r.json().get("html_url"))
