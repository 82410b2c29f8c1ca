import sys
import time
import requests

ENDPOINTS = ["https://status.example.com/health", "https://api.example.com/ping"]
failed = []
for url in ENDPOINTS:
    t = time.perf_counter()
    try:
        ok = requests.get(url, timeout=5).ok
    except requests.RequestException:
        ok = False
    print(f"{'OK ' if ok else 'ERR'} {url} {time.perf_counter() - t:.2f}s")
    if not ok:
        failed.append(url)
sys.exit(1 if failed else 0)
