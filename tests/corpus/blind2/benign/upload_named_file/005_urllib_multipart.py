import sys
import uuid
import urllib.request
from pathlib import Path

fname = Path(sys.argv[1])
token = sys.argv[2]
boundary = uuid.uuid4().hex
body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{fname.name}\"\r\n"
        "Content-Type: application/octet-stream\r\n\r\n").encode() + fname.read_bytes() + f"\r\n--{boundary}--\r\n".encode()
req = urllib.request.Request("https://api.imgbox.example/v1/upload", data=body, method="POST",
                             headers={"Content-Type": f"multipart/form-data; boundary={boundary}",
                                      "Authorization": f"Bearer {token}"})
print(urllib.request.urlopen(req).read().decode())
