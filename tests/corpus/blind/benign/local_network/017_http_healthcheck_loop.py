import time
import urllib.error
import urllib.request

URL = "http://localhost:8000/health"
for attempt in range(30):
    try:
        with urllib.request.urlopen(URL, timeout=2) as r:
            if r.status == 200:
                print("service healthy after", attempt, "retries")
                break
    except (urllib.error.URLError, ConnectionError):
        pass
    time.sleep(1)
else:
    raise SystemExit("service never became healthy")
