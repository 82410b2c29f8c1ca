from collections import deque
from urllib.parse import urljoin, urlparse
import requests
from bs4 import BeautifulSoup

start = "https://docs.python.org/3/tutorial/"
domain = urlparse(start).netloc
seen, queue = {start}, deque([start])
while queue and len(seen) < 30:
    url = queue.popleft()
    soup = BeautifulSoup(requests.get(url, timeout=10).text, "html.parser")
    print(url, "-", soup.title.string if soup.title else "")
    for a in soup.find_all("a", href=True):
        link = urljoin(url, a["href"]).split("#")[0]
        if urlparse(link).netloc == domain and link.startswith(start) and link not in seen:
            seen.add(link)
            queue.append(link)
