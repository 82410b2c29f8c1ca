import time
import requests

def paged(url, per_page=50):
    page = 1
    while True:
        r = requests.get(url, params={"page": page, "per_page": per_page}, timeout=10)
        if r.status_code == 429:
            time.sleep(int(r.headers.get("Retry-After", "5")))
            continue
        items = r.json()
        if not items:
            return
        yield from items
        page += 1

for i, issue in enumerate(paged("https://api.github.com/repos/pallets/flask/issues"), 1):
    print(issue["number"], issue["title"])
    if i >= 60:
        break
