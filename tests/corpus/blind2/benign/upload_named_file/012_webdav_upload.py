import sys
import requests
from requests.auth import HTTPBasicAuth
import os

local = sys.argv[1]
remote = f"https://cloud.example.net/remote.php/dav/files/{os.environ['NC_USER']}/Uploads/{os.path.basename(local)}"
with open(local, "rb") as fh:
    r = requests.put(remote, data=fh, auth=HTTPBasicAuth(os.environ["NC_USER"], os.environ["NC_APP_PASSWORD"]))
print(r.status_code)
