import sys
import urllib.parse
import urllib.request
import json

title = " ".join(sys.argv[1:]) or "Python (programming language)"
url = "https://en.wikipedia.org/api/rest_v1/page/summary/" + urllib.parse.quote(title.replace(" ", "_"))
req = urllib.request.Request(url, headers={"User-Agent": "summary-cli/0.1"})
with urllib.request.urlopen(req, timeout=10) as r:
    print(json.load(r)["extract"])
