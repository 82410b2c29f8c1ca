# expect: BENIGN category: misc
from concurrent.futures import ThreadPoolExecutor

import requests

URLS = [f"https://httpbin.org/delay/{i % 3}" for i in range(6)]

def fetch(url):
    return url, requests.get(url, timeout=15).status_code

with ThreadPoolExecutor(max_workers=4) as pool:
    for url, status in pool.map(fetch, URLS):
        print(status, url)
