# expect: MEDIUM category: risky
# Downloads a file over HTTP.
import requests

response = requests.get("https://example.com/data.csv", timeout=30)
response.raise_for_status()
with open("data.csv", "wb") as handle:
    handle.write(response.content)
