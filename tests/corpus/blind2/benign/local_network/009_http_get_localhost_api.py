import json
import urllib.request

def health(port):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
            return json.load(r)
    except OSError as e:
        return {"error": str(e)}

for svc, port in [("api", 8000), ("worker", 8001)]:
    print(svc, health(port))
