# expect: BENIGN category: http_client
import os

import requests

api_key = os.environ["SERVICE_API_KEY"]
payload = {"name": "nightly build", "status": "passed"}
response = requests.post(
    "https://api.example.com/v1/builds",
    json=payload,
    headers={"Authorization": f"Token {api_key}"},
    timeout=15,
)
print(response.status_code, response.json().get("id"))
