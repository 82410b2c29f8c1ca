# expect: BENIGN category: http_client
import re

import requests

html = requests.get("https://example.com", timeout=10).text
for link in sorted(set(re.findall(r'href="(https?://[^"]+)"', html))):
    try:
        status = requests.head(link, allow_redirects=True, timeout=5).status_code
    except requests.RequestException as exc:
        status = type(exc).__name__
    print(status, link)
