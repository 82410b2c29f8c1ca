import sys
import requests

for pkg in sys.argv[1:] or ["requests", "numpy", "flask"]:
    info = requests.get(f"https://pypi.org/pypi/{pkg}/json", timeout=10).json()["info"]
    print(f"{pkg:<15} {info['version']:<10} {info['summary']}")
