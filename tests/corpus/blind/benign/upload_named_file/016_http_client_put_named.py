import http.client
import sys
from pathlib import Path

f = Path(sys.argv[1])
conn = http.client.HTTPSConnection("webdav.example.org")
conn.request("PUT", f"/remote.php/dav/files/me/{f.name}", body=f.read_bytes(),
             headers={"Authorization": "Basic " + sys.argv[2]})
r = conn.getresponse()
print(r.status, r.reason)
