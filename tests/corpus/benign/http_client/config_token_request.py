# expect: BENIGN category: http_client
import json
import os

import requests

with open(os.path.expanduser("~/.config/weather/config.json")) as handle:
    config = json.load(handle)
response = requests.get(
    config["endpoint"],
    params={"city": config.get("city", "Oslo")},
    headers={"Authorization": f"Bearer {config['token']}"},
    timeout=10,
)
print(response.json()["summary"])
