# expect: BENIGN category: http_client
import os

import requests

token = os.environ.get("GITHUB_TOKEN")
headers = {"Accept": "application/vnd.github+json"}
if token:
    headers["Authorization"] = f"Bearer {token}"
response = requests.get("https://api.github.com/users/octocat/repos", headers=headers, timeout=10)
response.raise_for_status()
for repo in response.json():
    print(repo["name"], repo["stargazers_count"])
