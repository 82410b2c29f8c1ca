import httpx

def all_pages(url):
    with httpx.Client(timeout=10) as c:
        while url:
            r = c.get(url)
            r.raise_for_status()
            yield from r.json()
            url = r.links.get("next", {}).get("url")

issues = list(all_pages("https://api.github.com/repos/pallets/flask/issues?per_page=50"))
print(len(issues), "open issues")
