import json
import os
import sys
import urllib.request

fname = sys.argv[1]
payload = {"public": False, "files": {os.path.basename(fname): {"content": open(fname).read()}}}
req = urllib.request.Request(
    "https://api.github.com/gists",
    data=json.dumps(payload).encode(),
    headers={"Authorization": f"token {os.environ['GITHUB_TOKEN']}", "Accept": "application/vnd.github+json"},
)
print(json.load(urllib.request.urlopen(req))["html_url"])
