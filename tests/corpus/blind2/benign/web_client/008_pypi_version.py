import sys
import requests

def latest(pkg):
    r = requests.get(f"https://pypi.org/pypi/{pkg}/json", timeout=10)
    r.raise_for_status()
    return r.json()["info"]["version"]

for pkg in sys.argv[1:] or ["requests", "httpx", "flask"]:
    print(f"{pkg:12} {latest(pkg)}")
